#include "ElfMetadata.h"

#include "FileIo.h"

#include "pathcov/format/InputError.h"

#include <gelf.h>

#include <cstring>
#include <memory>

namespace pathcov {

namespace {

std::string buildIdOf(Elf_Data *notes) {
  GElf_Nhdr header;
  size_t nameOffset, descOffset;
  for (size_t offset = 0;
       (offset = gelf_getnote(notes, offset, &header, &nameOffset,
                              &descOffset)) > 0;) {
    const char *name = static_cast<const char *>(notes->d_buf) + nameOffset;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0)
      return buildIdHex(static_cast<const unsigned char *>(notes->d_buf) + descOffset,
                 header.n_descsz);
  }
  return "";
}

void splitRecords(Elf_Data *data, std::vector<std::string> &records) {
  const char *begin = static_cast<const char *>(data->d_buf);
  const char *end = begin + data->d_size;
  // Records are NUL-terminated; alignment may leave NULs between them.
  for (const char *p = begin; p < end;) {
    const char *nul = static_cast<const char *>(std::memchr(p, 0, end - p));
    const char *stop = nul ? nul : end;
    if (stop > p)
      records.emplace_back(p, stop);
    p = stop + 1;
  }
}

} // namespace

ModuleMetadata readModuleMetadata(const std::string &path) {
  const auto fail = [&path](const std::string &problem) {
    return InputError(path + ": " + problem);
  };
  if (elf_version(EV_CURRENT) == EV_NONE)
    throw fail("libelf is unusable");
  FileDescriptor file = [&] {
    try {
      return openRegularFile(path);
    } catch (const InputError &e) {
      throw fail(e.what());
    }
  }();
  const std::unique_ptr<Elf, int (*)(Elf *)> elf(
      elf_begin(file.get(), ELF_C_READ_MMAP, nullptr), elf_end);
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF)
    throw fail("not an ELF file");
  size_t namesIndex;
  if (elf_getshdrstrndx(elf.get(), &namesIndex) != 0)
    throw fail(std::string("bad ELF section table: ") + elf_errmsg(-1));

  ModuleMetadata module{path, "", false, {}};
  for (Elf_Scn *scn = nullptr; (scn = elf_nextscn(elf.get(), scn));) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header))
      throw fail(std::string("bad ELF section header: ") + elf_errmsg(-1));
    const char *name = elf_strptr(elf.get(), namesIndex, header.sh_name);
    if (header.sh_type == SHT_NOTE && module.buildId.empty()) {
      if (Elf_Data *data = elf_getdata(scn, nullptr))
        module.buildId = buildIdOf(data);
    } else if (name && header.sh_type == SHT_PROGBITS &&
               (std::strcmp(name, kMetadataSection) == 0 ||
                std::strcmp(name, kLegacyMetadataSection) == 0)) {
      // Both, where a link mixed older objects with newer ones.
      const auto bad = [&](const char *what) {
        return fail(std::string("section ") + name + ": " + what + ": " +
                    elf_errmsg(-1));
      };
      // -gz, ld --compress-debug-sections, objcopy: decompressed in place.
      if ((header.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
        throw bad("cannot decompress");
      Elf_Data *data = elf_getdata(scn, nullptr);
      if (!data)
        throw bad("unreadable");
      module.hasMetadata = true;
      splitRecords(data, module.records);
    }
  }
  return module;
}

std::string buildIdHex(const unsigned char *bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < size; ++i) {
    text += digits[bytes[i] >> 4];
    text += digits[bytes[i] & 15];
  }
  return text;
}

} // namespace pathcov
