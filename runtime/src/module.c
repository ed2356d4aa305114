/* Which module this copy of the runtime lives in: its path and GNU build-id,
 * read from the loader's program headers (no libelf, nothing but libc);
 * and what both modes' runtimes (record.c, residual.c) start from. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

void pathcov_once(pthread_once_t *once, void (*init)(void)) {
  const int saved = errno;
  pthread_once(once, init);
  errno = saved;
}

void *pathcov_map_zeroed(size_t bytes, int flags) {
  const int saved = errno;
  void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  errno = saved;
  return memory;
}

static struct {
  pthread_once_t once;
  struct pathcov_module id;
} this_module = {.once = PTHREAD_ONCE_INIT};

/* Any address in this copy of the runtime identifies the module: the
 * runtime is linked statically into it. The diagnostics' settings are read
 * then, before either mode can print. */
static void identify_this_module(void) {
  pathcov_module_identify(&this_module, &this_module.id);
  pathcov_read_settings();
}

const struct pathcov_module *pathcov_this_module(void) {
  pathcov_once(&this_module.once, identify_this_module);
  return &this_module.id;
}

static struct {
  pthread_once_t once;
  uint64_t count;
} invalid_descriptors = {.once = PTHREAD_ONCE_INIT};

static void count_invalid_descriptors(void) {
  FOR_EACH_DESCRIPTOR(p) {
    if (!is_valid_record(*p) && !is_residual(*p))
      ++invalid_descriptors.count;
  }
  if (invalid_descriptors.count)
    pathcov_warn("%s: %llu function descriptors are not of ABI version %d "
                 "or are malformed: their paths are not counted",
                 pathcov_this_module()->path,
                 (unsigned long long)invalid_descriptors.count,
                 PATHCOV_ABI_VERSION);
}

uint64_t pathcov_invalid_descriptors(void) {
  pathcov_once(&invalid_descriptors.once, count_invalid_descriptors);
  return invalid_descriptors.count;
}

struct search {
  uintptr_t addr;
  struct pathcov_module *m;
};

static int contains(const struct dl_phdr_info *info, uintptr_t addr) {
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && addr >= start && addr - start < ph->p_memsz)
      return 1;
  }
  return 0;
}

static void copy_path(char *dst, const char *src) {
  strncpy(dst, src, PATH_MAX - 1);
  dst[PATH_MAX - 1] = '\0';
}

static void read_path(const struct dl_phdr_info *info, char *path) {
  if (info->dlpi_name[0] != '\0') { /* a shared library */
    if (!realpath(info->dlpi_name, path))
      copy_path(path, info->dlpi_name);
    return;
  }
  /* The main program has no name in the loader's list. */
  pathcov_program_path(path);
  if (path[0])
    return;
  const char *execfn = (const char *)getauxval(AT_EXECFN); /* no /proc */
  copy_path(path, execfn ? execfn : "");
}

static size_t align_up(size_t n, size_t align) {
  return (n + align - 1) & ~(align - 1);
}

/* Walks the PT_NOTE segments of an object's program headers for the note
 * "GNU" / NT_GNU_BUILD_ID. */
static void read_build_id(const ElfW(Phdr) *phdr, ElfW(Half) phnum,
                          uintptr_t bias, char *hex) {
  static const char digits[] = "0123456789abcdef";
  hex[0] = '\0';
  for (ElfW(Half) i = 0; i < phnum; ++i) {
    const ElfW(Phdr) *ph = &phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const unsigned char *note =
        (const unsigned char *)(bias + ph->p_vaddr);
    size_t left = ph->p_memsz;
    size_t align = ph->p_align == 8 ? 8 : 4; /* gABI: 4, or 8 in 64-bit */
    while (left >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)note;
      size_t desc = align_up(sizeof *nh + nh->n_namesz, align);
      size_t next = align_up(desc + nh->n_descsz, align);
      if (desc > left || nh->n_descsz > left - desc)
        break; /* truncated: do not read past the segment */
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
          memcmp(note + sizeof *nh, "GNU", 4) == 0 &&
          nh->n_descsz <= PATHCOV_BUILD_ID_MAX) {
        for (size_t k = 0; k < nh->n_descsz; ++k) {
          hex[2 * k] = digits[note[desc + k] >> 4];
          hex[2 * k + 1] = digits[note[desc + k] & 15];
        }
        hex[2 * nh->n_descsz] = '\0';
        return;
      }
      if (next >= left)
        break;
      note += next;
      left -= next;
    }
  }
}

static int find_module(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct search *s = data;
  if (!contains(info, s->addr))
    return 0;
  read_path(info, s->m->path);
  read_build_id(info->dlpi_phdr, info->dlpi_phnum, info->dlpi_addr,
                s->m->build_id);
  return 1; /* stop iterating */
}

void pathcov_module_identify(const void *addr, struct pathcov_module *m) {
  struct search s = {(uintptr_t)addr, m};
  m->path[0] = '\0';
  m->build_id[0] = '\0';
  dl_iterate_phdr(find_module, &s);
  const char *slash = strrchr(m->path, '/');
  m->base = slash ? slash + 1 : m->path;
}

int pathcov_locate_address(uintptr_t pc, int with_build_id,
                           struct pathcov_located *out) {
  struct dl_find_object found;
  if (_dl_find_object((void *)pc, &found) != 0 || !found.dlfo_link_map)
    return -1;
  const struct link_map *map = found.dlfo_link_map;
  out->object = found.dlfo_map_start;
  out->address = pc - map->l_addr;
  out->name = map->l_name;
  /* The ELF header, and with it the program headers, start the object's
   * first segment. */
  const ElfW(Ehdr) *eh = found.dlfo_map_start;
  out->build_id[0] = '\0';
  if (with_build_id && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0)
    read_build_id((const ElfW(Phdr) *)((const char *)eh + eh->e_phoff),
                  eh->e_phnum, map->l_addr, out->build_id);
  return 0;
}

void pathcov_program_path(char *path) {
  ssize_t n = readlink("/proc/self/exe", path, PATH_MAX - 1);
  path[n > 0 ? n : 0] = '\0';
}
