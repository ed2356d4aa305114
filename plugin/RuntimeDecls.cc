// Instrumenter.h first: it brings the JSON library, which must precede
// GCC's headers.
#include "Instrumenter.h"
#include "RuntimeDecls.h"

namespace pathcov {

namespace {

// abi.h's constants; plugin/ cannot include the runtime's C header as-is
// because GCC's headers poison some of what stdint.h pulls in.
constexpr uint64_t kAbiVersion = 1;
constexpr uint64_t kFlagHashed = 1;
constexpr uint64_t kFlagAtomic = 2;

tree gDescriptorType;
tree gRecordPathDecl;

const ggc_root_tab kRoots[] = {
    {&gDescriptorType, 1, sizeof(gDescriptorType), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    {&gRecordPathDecl, 1, sizeof(gRecordPathDecl), &gt_ggc_mx_tree_node,
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

tree metadataVar(const std::string &text) {
  const size_t size = text.size() + 1; // keep the NUL: records are split on it
  tree type = build_array_type_nelts(char_type_node, size);
  tree str = build_string(size, text.c_str());
  TREE_TYPE(str) = type;
  tree var = staticVar("__pathcov_meta", type);
  TREE_READONLY(var) = 1;
  DECL_INITIAL(var) = str;
  SET_DECL_ALIGN(var, BITS_PER_UNIT);
  DECL_USER_ALIGN(var) = 1;
  finishVar(var, "pathcov_meta");
  return var;
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
      {"identity", constCharPtr},     {"metadata", constCharPtr},
      {"counters", build_pointer_type(counterType())},
      {"calls", counterType()},       {"runtime", ptr_type_node},
  };
  tree type = lang_hooks.types.make_type(RECORD_TYPE);
  tree chain = NULL_TREE;
  for (auto it = std::rbegin(fields); it != std::rend(fields); ++it) {
    tree field = build_decl(BUILTINS_LOCATION, FIELD_DECL,
                            get_identifier(it->name), it->type);
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

tree recordPathDecl() {
  if (gRecordPathDecl)
    return gRecordPathDecl;
  tree type = build_function_type_list(
      void_type_node, build_pointer_type(descriptorType()), pathType(),
      NULL_TREE);
  tree decl = build_fn_decl("__pathcov_record_path", type);
  TREE_NOTHROW(decl) = 1;
  DECL_ATTRIBUTES(decl) =
      tree_cons(get_identifier("leaf"), NULL, DECL_ATTRIBUTES(decl));
  DECL_ASSEMBLER_NAME(decl); // LTO streams decls made this late by name
  gRecordPathDecl = decl;
  return decl;
}

void registerGcRoots(const char *pluginName) {
  register_callback(pluginName, PLUGIN_REGISTER_GGC_ROOTS, nullptr,
                    const_cast<ggc_root_tab *>(kRoots));
}

// A reference to the runtime's anchor (abi.h), once per unit.
void referToRuntime() {
  static bool done;
  if (done)
    return;
  done = true;
  tree anchor = build_decl(BUILTINS_LOCATION, VAR_DECL,
                           get_identifier("__pathcov_runtime_link"),
                           build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  TREE_PUBLIC(anchor) = 1;
  DECL_EXTERNAL(anchor) = 1;
  DECL_ARTIFICIAL(anchor) = 1;
  tree link = staticVar("__pathcov_link", ptr_type_node);
  DECL_INITIAL(link) = fold_convert(ptr_type_node, build_fold_addr_expr(anchor));
  DECL_PRESERVE_P(link) = 1;
  finishVar(link, nullptr);
}

FunctionTables emitFunctionTables(const FunctionTableSpec &spec) {
  ++gTableCount;
  referToRuntime();
  FunctionTables tables{NULL_TREE, NULL_TREE};
  if (!spec.hashed) {
    tables.counters = staticVar(
        "__pathcov_counters",
        build_array_type_nelts(counterType(), spec.numPaths + 1));
    TREE_ADDRESSABLE(tables.counters) = 1;
    DECL_NONALIASED(tables.counters) = 1;
    finishVar(tables.counters, nullptr);
  }
  tree meta = metadataVar(spec.metadata);

  tree type = descriptorType();
  tables.descriptor = staticVar("__pathcov_function", type);
  TREE_ADDRESSABLE(tables.descriptor) = 1;
  const auto field = [&](DescriptorField f) { return descriptorField(type, f); };
  const auto u64 = [](uint64_t v) { return build_int_cstu(counterType(), v); };
  vec<constructor_elt, va_gc> *init = nullptr;
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::AbiVersion), u64(kAbiVersion));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::Flags),
                         u64((spec.hashed ? kFlagHashed : 0) |
                             (spec.atomic ? kFlagAtomic : 0)));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::CfgChecksum),
                         u64(spec.cfgChecksum));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::NumPaths), u64(spec.numPaths));
  tree identity = build_string_literal(spec.identity.size() + 1,
                                       spec.identity.c_str());
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::Identity),
                         fold_convert(TREE_TYPE(field(DescriptorField::Identity)),
                                      identity));
  CONSTRUCTOR_APPEND_ELT(init, field(DescriptorField::Metadata),
                         addressAs(TREE_TYPE(field(DescriptorField::Metadata)), meta));
  CONSTRUCTOR_APPEND_ELT(
      init, field(DescriptorField::Counters),
      tables.counters
          ? addressAs(TREE_TYPE(field(DescriptorField::Counters)), tables.counters)
          : null_pointer_node);
  DECL_INITIAL(tables.descriptor) = build_constructor(type, init);
  finishVar(tables.descriptor, nullptr);

  tree pointer = staticVar("__pathcov_function_ptr", build_pointer_type(type));
  DECL_INITIAL(pointer) = build_fold_addr_expr(tables.descriptor);
  SET_DECL_ALIGN(pointer, POINTER_SIZE);
  DECL_USER_ALIGN(pointer) = 1;
  finishVar(pointer, "pathcov_functions");
  return tables;
}

void emitMetadataOnly(const std::string &metadata) {
  ++gTableCount;
  metadataVar(metadata);
}

} // namespace pathcov
