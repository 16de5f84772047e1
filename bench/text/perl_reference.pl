#!/usr/bin/perl
# The peer of text_tag_bench: Lingua::EN::Tagger's add_tags on every line of the input files
# in one process (load time excluded), timed with Time::HiRes.
#   perl perl_reference.pl FILE [FILE...]
use strict;
use warnings;
use Lingua::EN::Tagger;
use Time::HiRes qw(time);

my @lines;
for my $f (@ARGV) {
  open(my $fh, '<', $f) or die "cannot open $f: $!\n";
  while (my $l = <$fh>) { chomp $l; push @lines, $l; }
}
my $tagger = Lingua::EN::Tagger->new;
my $n = 0;
my $start = time;
for my $l (@lines) {
  my $t = $tagger->add_tags($l);
  $n += scalar(() = $t =~ / /g) + 1 if defined $t;
}
my $s = time - $start;
printf "tokens %d seconds %.4f tokens_per_s %.0f\n", $n, $s, $n / $s;
