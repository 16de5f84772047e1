// A ByteSource that decodes ISO-8859-1 (Latin-1) to UTF-8 as it is read, for the inputs that
// are Latin-1 by definition or by the user's option (MovieLens files, --latin1): wrapped in it,
// such a file goes through LineReader like any UTF-8 text. A UTF-8 byte-order mark at the start
// is dropped, and gzip data is rejected like LineReader rejects it.
#pragma once

#include <memory>

#include "core/byte_source.h"

namespace assay::core {

std::unique_ptr<ByteSource> latin1_source(std::unique_ptr<ByteSource> inner);

}  // namespace assay::core
