// Escaping of text placed in XML, SVG and HTML (element text and attribute values).
#pragma once

#include <string>

namespace assay::core {

// Escapes &, <, >, " and ' (as &amp; &lt; &gt; &quot; &apos;).
std::string xml_escape(const std::string& text);

}  // namespace assay::core
