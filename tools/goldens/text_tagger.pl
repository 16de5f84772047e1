#!/usr/bin/perl
# Runs the Debian Lingua::EN::Tagger (liblingua-en-tagger-perl) on the first N lines of a text
# file, one add_tags call per line. The module keeps state across calls (a hyphenated word
# autovivifies its suffix, as a word whose only tag 'jj' is undefined, in the class-wide
# lexicon), so after every line the entries the lexicon did not have are deleted again: each
# line is tagged as by a fresh tagger (checked: same output as a new tagger per line, which
# takes minutes).
#
#   perl text_tagger.pl [--tokens] FILE N
#
# Prints, per input line, the tags separated by spaces (default) or, with --tokens, one
# "token<TAB>tag" line per token and an empty line after each input line. Hash order is fixed
# (PERL_HASH_SEED=0, set by the wrapper text_tagger.sh) so ties are broken reproducibly.
use strict;
use warnings;
use Lingua::EN::Tagger;

my $tokens = 0;
if (@ARGV && $ARGV[0] eq '--tokens') { $tokens = 1; shift @ARGV; }
die "usage: $0 [--tokens] FILE N\n" unless @ARGV == 2;
my ($path, $n) = @ARGV;
binmode STDOUT, ':encoding(UTF-8)';
open(my $fh, '<', $path) or die "cannot open $path: $!\n";
my $tagger = Lingua::EN::Tagger->new;
my %original = map { $_ => 1 } keys %Lingua::EN::Tagger::_LEXICON;
my $n_words = scalar(keys %original);
my $count = 0;
while (my $line = <$fh>) {
  last if $count++ >= $n;
  chomp $line;
  my $tagged = $tagger->add_tags($line);   # add_tags decodes the UTF-8 bytes itself
  if (scalar(keys %Lingua::EN::Tagger::_LEXICON) != $n_words) {
    for my $k (keys %Lingua::EN::Tagger::_LEXICON) {
      delete $Lingua::EN::Tagger::_LEXICON{$k} unless exists $original{$k};
    }
  }
  my @pairs;
  if (defined $tagged) {
    for my $item (split / /, $tagged) {
      $item =~ m{^<([^>]+)>(.*)</\1>$}s or die "unexpected tagger output: $item\n";
      push @pairs, [$2, $1];
    }
  }
  if ($tokens) {
    print "$_->[0]\t$_->[1]\n" for @pairs;
    print "\n";
  } else {
    print join(' ', map { $_->[1] } @pairs), "\n";
  }
}
