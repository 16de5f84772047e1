#include "core/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace assay::core {
namespace {

struct Search {
  std::uintptr_t address = 0;  // of code in the object wanted
  std::string id;
};

// The build ID note among the PT_NOTE segments of one loaded object, if it holds the address.
int find_in_object(dl_phdr_info* info, std::size_t, void* data) {
  auto& search = *static_cast<Search*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && search.address >= begin && search.address < begin + ph.p_memsz)
      holds = true;
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    const auto* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const auto* name = at + sizeof note;
      const auto* desc = name + ((note.n_namesz + 3u) & ~3u);
      const auto* next = desc + ((note.n_descsz + 3u) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        static const char kHex[] = "0123456789abcdef";
        for (std::size_t k = 0; k < note.n_descsz; ++k) {
          search.id += kHex[desc[k] >> 4];
          search.id += kHex[desc[k] & 15];
        }
        return 1;
      }
      at = next;
    }
  }
  return 1;  // the object holding the code has no build ID
}

}  // namespace

const std::string& build_id() {
  static const std::string id = [] {
    Search search;
    search.address = reinterpret_cast<std::uintptr_t>(&find_in_object);
    dl_iterate_phdr(find_in_object, &search);
    return search.id;
  }();
  return id;
}

}  // namespace assay::core
