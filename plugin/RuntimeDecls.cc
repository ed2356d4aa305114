// Instrumenter.h first: it brings the JSON library, which must precede
// GCC's headers.
#include "Instrumenter.h"
#include "RuntimeDecls.h"
#include "TestedWords.h"
#include "pathcov/format/MetadataSection.h"

namespace pathcov {

namespace {

tree gDescriptorType;
tree gRecordPathDecl;
tree gResidualPathDecl;
tree gResidualLookupDecl;
tree gKPathDecl;

const ggc_root_tab kRoots[] = {
    {&gDescriptorType, 1, sizeof(gDescriptorType), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    {&gRecordPathDecl, 1, sizeof(gRecordPathDecl), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    {&gResidualPathDecl, 1, sizeof(gResidualPathDecl), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    {&gResidualLookupDecl, 1, sizeof(gResidualLookupDecl),
     &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
    {&gKPathDecl, 1, sizeof(gKPathDecl), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB,
};

unsigned gTableCount;

// A file-scope static the optimizers keep and the linker keeps too.
tree staticVar(const char *prefix, tree type) {
  char name[64];
  snprintf(name, sizeof name, "%s.%u", prefix, gTableCount);
  tree var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
  TREE_STATIC(var) = 1;
  TREE_PUBLIC(var) = 0;
  DECL_ARTIFICIAL(var) = 1;
  DECL_IGNORED_P(var) = 1;
  DECL_CONTEXT(var) = NULL_TREE;
  return var;
}

void finishVar(tree var, const char *section) {
  if (section) {
    set_decl_section_name(var, section);
    DECL_PRESERVE_P(var) = 1;
  }
  TREE_USED(var) = 1;
  mark_decl_referenced(var);
  varpool_node::finalize_decl(var);
}

// A function's metadata record, NUL-terminated (the tools split records on
// it), in section kMetadataSection: not allocated, so it costs the loaded
// image nothing, and a .debug name, so binutils treat it like debug info
// (strip -g removes it, objcopy --only-keep-debug keeps it). Toplevel asm,
// not a variable: a variable in a non-allocated section is not what GCC's
// varasm emits, and LTO streams toplevel asm into the IR
// (slim LTO objects drop anything the compile phase writes beside it).
void emitMetadataRecord(const std::string &text) {
  std::string asmText =
      std::string("\t.pushsection ") + kMetadataSection + ",\"\",@progbits\n";
  // Lines of at most ~4 KiB: the assembler takes any length, people
  // reading -save-temps output prefer short ones.
  constexpr size_t kChunk = 4096;
  for (size_t begin = 0; begin < text.size(); begin += kChunk) {
    asmText += "\t.ascii \"";
    const size_t end = std::min(text.size(), begin + kChunk);
    for (size_t i = begin; i < end; ++i) {
      const unsigned char c = text[i];
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
        char octal[8];
        snprintf(octal, sizeof octal, "\\%03o", c);
        asmText += octal;
      } else {
        asmText += static_cast<char>(c);
      }
    }
    asmText += "\"\n";
  }
  asmText += "\t.byte 0\n\t.popsection";
  symtab->finalize_toplevel_asm(build_string(asmText.size(), asmText.c_str()));
}

tree addressAs(tree type, tree var) {
  return fold_convert(type, build_fold_addr_expr(var));
}

} // namespace

tree pathType() { return long_long_unsigned_type_node; }
tree counterType() { return long_long_unsigned_type_node; }

tree descriptorType() {
  if (gDescriptorType)
    return gDescriptorType;
  tree constCharPtr =
      build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  const struct {
    const char *name;
    tree type;
  } fields[] = {
      {"abi_version", counterType()}, {"flags", counterType()},
      {"cfg_checksum", counterType()}, {"num_paths", counterType()},
      {"identity", constCharPtr},
      {"counters", build_pointer_type(counterType())},
      {"calls", build_pointer_type(counterType())},
      {"runtime", ptr_type_node},
      {"table_size", counterType()},  {"resumes", counterType()},
      {"seen", build_pointer_type(counterType())},
      {"seen_slots", counterType()},
  };
  static_assert(sizeof fields / sizeof fields[0] == kDescriptorFields);
  // finish_builtin_struct takes the fields last first.
  tree type = lang_hooks.types.make_type(RECORD_TYPE);
  tree chain = NULL_TREE;
  for (const auto &f : fields) {
    tree field = build_decl(BUILTINS_LOCATION, FIELD_DECL,
                            get_identifier(f.name), f.type);
    DECL_CHAIN(field) = chain;
    chain = field;
  }
  finish_builtin_struct(type, "pathcov_function", chain, NULL_TREE);
  gDescriptorType = type;
  return type;
}

tree descriptorField(tree type, DescriptorField which) {
  tree field = TYPE_FIELDS(type);
  for (int i = 0; i < static_cast<int>(which); ++i)
    field = DECL_CHAIN(field);
  return field;
}

// void NAME(struct pathcov_function *, uint64_t), or of `type`, made once
// and cached in `decl` (a GC root).
static tree runtimeEntryPoint(tree &decl, const char *name,
                              tree type = NULL_TREE) {
  if (decl)
    return decl;
  if (!type)
    type = build_function_type_list(
        void_type_node, build_pointer_type(descriptorType()), pathType(),
        NULL_TREE);
  decl = build_fn_decl(name, type);
  TREE_NOTHROW(decl) = 1;
  DECL_ATTRIBUTES(decl) =
      tree_cons(get_identifier("leaf"), NULL, DECL_ATTRIBUTES(decl));
  DECL_ASSEMBLER_NAME(decl); // LTO streams decls made this late by name
  return decl;
}

tree recordPathDecl() {
  return runtimeEntryPoint(gRecordPathDecl, "__pathcov_record_path");
}
tree residualPathDecl() {
  return runtimeEntryPoint(gResidualPathDecl, "__pathcov_residual_path");
}
tree residualLookupDecl() {
  return runtimeEntryPoint(gResidualLookupDecl, "__pathcov_residual_lookup");
}

tree kpathDecl() {
  return runtimeEntryPoint(
      gKPathDecl, "__pathcov_kpath",
      build_function_type_list(void_type_node, ptr_type_node,
                               build_pointer_type(counterType()), pathType(),
                               NULL_TREE));
}

tree emitKPaths(tree descriptor, unsigned k) {
  // struct pathcov_kpaths as words: k, the descriptor, then the runtime's.
  tree type = build_array_type_nelts(ptr_type_node, kKPathsWords);
  tree kpaths = staticVar("__pathcov_kpaths", type);
  TREE_ADDRESSABLE(kpaths) = 1;
  vec<constructor_elt, va_gc> *init = nullptr;
  CONSTRUCTOR_APPEND_ELT(init, size_int(0), build_int_cstu(ptr_type_node, k));
  CONSTRUCTOR_APPEND_ELT(init, size_int(1), addressAs(ptr_type_node, descriptor));
  DECL_INITIAL(kpaths) = build_constructor(type, init);
  finishVar(kpaths, nullptr);
  return kpaths;
}

void registerGcRoots(const char *pluginName) {
  register_callback(pluginName, PLUGIN_REGISTER_GGC_ROOTS, nullptr,
                    const_cast<ggc_root_tab *>(kRoots));
}

// A reference to the anchor of the unit's mode in the runtime (abi.h),
// once per unit: each mode's binaries link that mode's runtime alone.
void referToRuntime(bool residual) {
  static bool done;
  if (done)
    return;
  done = true;
  tree anchor = build_decl(
      BUILTINS_LOCATION, VAR_DECL,
      get_identifier(residual ? "__pathcov_residual_runtime_missing_link_with_lpathcov_rt"
                              : "__pathcov_runtime_missing_link_with_lpathcov_rt"),
      build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  TREE_PUBLIC(anchor) = 1;
  DECL_EXTERNAL(anchor) = 1;
  DECL_ARTIFICIAL(anchor) = 1;
  tree link = staticVar("__pathcov_link", ptr_type_node);
  DECL_INITIAL(link) = fold_convert(ptr_type_node, build_fold_addr_expr(anchor));
  DECL_PRESERVE_P(link) = 1;
  finishVar(link, nullptr);
}

FunctionTableTrees emitFunctionTables(const FunctionTableSpec &spec) {
  ++gTableCount;
  referToRuntime((spec.flags & kFlagResidual) != 0);
  tree counters = NULL_TREE;
  if (!spec.bytemap.empty()) {
    tree type = build_qualified_type(
        build_array_type_nelts(unsigned_char_type_node, spec.bytemap.size()),
        TYPE_QUAL_CONST);
    counters = staticVar("__pathcov_tested", type);
    TREE_ADDRESSABLE(counters) = 1;
    TREE_READONLY(counters) = 1;
    DECL_INITIAL(counters) = build_string(
        spec.bytemap.size(), reinterpret_cast<const char *>(spec.bytemap.data()));
    TREE_TYPE(DECL_INITIAL(counters)) = type;
    if (spec.flags & kFlagTestedWords)
      markTestedWords(counters);
    finishVar(counters, nullptr);
  } else if (spec.numCounters) {
    // kFlagNarrow: uint32_t ids (kNoPath truncated to UINT32_MAX).
    const bool narrow = (spec.flags & kFlagNarrow) != 0;
    tree element = narrow ? uint32_type_node : counterType();
    tree type = build_array_type_nelts(element, spec.numCounters);
    if (spec.readOnly)
      type = build_qualified_type(type, TYPE_QUAL_CONST);
    counters = staticVar("__pathcov_counters", type);
    TREE_ADDRESSABLE(counters) = 1;
    DECL_NONALIASED(counters) = 1;
    TREE_READONLY(counters) = spec.readOnly;
    if (!spec.initialCounters.empty()) {
      vec<constructor_elt, va_gc> *init = nullptr;
      for (size_t i = 0; i < spec.initialCounters.size(); ++i)
        CONSTRUCTOR_APPEND_ELT(
            init, size_int(i),
            build_int_cstu(element, narrow ? uint32_t(spec.initialCounters[i])
                                           : spec.initialCounters[i]));
      DECL_INITIAL(counters) = build_constructor(type, init);
    }
    finishVar(counters, nullptr);
  }
  // Residual mode's seen slots (abi.h): zero, in .bss; written by the
  // runtime (tags, opening words) and by the function's code (counts).
  tree seen = NULL_TREE;
  if (spec.seenSlots) {
    tree type = build_array_type_nelts(counterType(), spec.seenArrayWords());
    seen = staticVar("__pathcov_seen", type);
    TREE_ADDRESSABLE(seen) = 1;
    DECL_NONALIASED(seen) = 1;
    finishVar(seen, nullptr);
  }
  // Record mode's entry count (abi.h): all functions' in one section, so
  // that those a loop runs share cache lines.
  tree calls = NULL_TREE;
  if (spec.countsCalls) {
    calls = staticVar("__pathcov_calls", counterType());
    TREE_ADDRESSABLE(calls) = 1;
    DECL_NONALIASED(calls) = 1;
    set_decl_section_name(calls, ".bss.pathcov_calls");
    finishVar(calls, nullptr);
  }
  emitMetadataRecord(spec.metadata);

  tree type = descriptorType();
  tree descriptor = staticVar("__pathcov_function", type);
  TREE_ADDRESSABLE(descriptor) = 1;
  const auto field = [&](DescriptorField f) { return descriptorField(type, f); };
  const auto u64 = [](uint64_t v) { return build_int_cstu(counterType(), v); };
  vec<constructor_elt, va_gc> *init = nullptr;
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::AbiVersion), u64(kAbiVersion));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::Flags), u64(spec.flags));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::CfgChecksum),
                         u64(spec.cfgChecksum));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::NumPaths), u64(spec.numPaths));
  tree identity = build_string_literal(spec.identity.size() + 1,
                                       spec.identity.c_str());
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::Identity),
                         fold_convert(TREE_TYPE(field(DescriptorField::Identity)),
                                      identity));
  CONSTRUCTOR_APPEND_ELT(
      init, field(DescriptorField::Counters),
      counters ? addressAs(TREE_TYPE(field(DescriptorField::Counters)), counters)
               : null_pointer_node);
  if (calls)
    CONSTRUCTOR_APPEND_ELT(
        init, field(DescriptorField::Calls),
        addressAs(TREE_TYPE(field(DescriptorField::Calls)), calls));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::TableSize),
                         u64(spec.tableSize));
  if (seen) {
    CONSTRUCTOR_APPEND_ELT(
        init, field(DescriptorField::Seen),
        addressAs(TREE_TYPE(field(DescriptorField::Seen)), seen));
    CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::SeenSlots),
                           u64(spec.seenSlots));
  }
  DECL_INITIAL(descriptor) = build_constructor(type, init);
  finishVar(descriptor, nullptr);

  tree pointer = staticVar("__pathcov_function_ptr", build_pointer_type(type));
  DECL_INITIAL(pointer) = build_fold_addr_expr(descriptor);
  SET_DECL_ALIGN(pointer, POINTER_SIZE);
  DECL_USER_ALIGN(pointer) = 1;
  finishVar(pointer, "pathcov_functions");
  return {descriptor, counters, seen, calls};
}

void setDescriptorFlags(tree descriptor, uint64_t add, uint64_t remove) {
  tree field = descriptorField(TREE_TYPE(descriptor), DescriptorField::Flags);
  unsigned i;
  tree index, value;
  FOR_EACH_CONSTRUCTOR_ELT(CONSTRUCTOR_ELTS(DECL_INITIAL(descriptor)), i, index, value)
    if (index == field)
      CONSTRUCTOR_ELT(DECL_INITIAL(descriptor), i)->value =
          build_int_cstu(counterType(), (tree_to_uhwi(value) | add) & ~remove);
}

void emitMetadataOnly(const std::string &metadata) {
  emitMetadataRecord(metadata);
}

} // namespace pathcov
