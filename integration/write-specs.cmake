# Run by `cmake --install` (CMakeLists.txt): writes pathcov-record.specs and
# pathcov-residual.specs into PREFIX/PATHCOV_SPECS_DIR (under DESTDIR) for
# CMAKE_INSTALL_PREFIX, with the cc1_options and cpp_options of PATHCOV_GCC,
# the compiler the plugin was built by. Run by the build with
# PATHCOV_PLUGIN, PATHCOV_RUNTIME and PATHCOV_SPECS_OUTPUT_DIR set instead:
# the build tree's own spec files, naming its plugin and runtime.
function(pathcov_in_prefix dir out)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(NOT PATHCOV_SPECS_OUTPUT_DIR)
  pathcov_in_prefix("${PATHCOV_PLUGIN_INSTALL_DIR}" plugin_dir)
  set(PATHCOV_PLUGIN "${plugin_dir}/pathcov.so")
  pathcov_in_prefix("${PATHCOV_LIBDIR}" libdir)
  set(PATHCOV_RUNTIME "${libdir}/libpathcov-rt.a")
  pathcov_in_prefix("${PATHCOV_SPECS_DIR}" specs_dir)
endif()
execute_process(COMMAND "${PATHCOV_GCC}" -dumpspecs OUTPUT_VARIABLE specs
                RESULT_VARIABLE failed)
foreach(spec cc1_options cpp_options)
  string(REGEX MATCH "\n\\*${spec}:\n([^\n]*)" found "${specs}")
  if(failed OR NOT found)
    message(FATAL_ERROR "no ${spec} in `${PATHCOV_GCC} -dumpspecs`")
  endif()
  string(TOUPPER "GCC_${spec}" variable)
  set(${variable} "${CMAKE_MATCH_1}")
endforeach()
# Packed relative relocations where the linker can (runtime/CMakeLists.txt).
if(PATHCOV_PACK_RELATIVE_RELOCS)
  set(PATHCOV_LINK_OPTIONS "-z pack-relative-relocs")
else()
  set(PATHCOV_LINK_OPTIONS "")
endif()
foreach(PATHCOV_MODE record residual)
  if(PATHCOV_MODE STREQUAL "residual")
    # At compile time, an error that says how to give the corpus; not in
    # lto1, whose options are these too (lto-wrapper runs the driver again
    # with the link's flags, which need not name the corpus: -fwpa or
    # -fltrans, or -fresolution= for both in one).
    set(PATHCOV_CC1_CHECK "%{!fplugin-arg-pathcov-corpus=*:%{!fwpa*:%{!fltrans*:%{!fresolution=*:%epathcov-residual.specs: residual mode needs -fplugin-arg-pathcov-corpus=FILE, the corpus from pathcov collect}}}}")
  else()
    set(PATHCOV_CC1_CHECK "")
  endif()
  if(PATHCOV_SPECS_OUTPUT_DIR)
    configure_file("${PATHCOV_SPECS_TEMPLATE}"
                   "${PATHCOV_SPECS_OUTPUT_DIR}/pathcov-${PATHCOV_MODE}.specs" @ONLY)
  else()
    set(file "$ENV{DESTDIR}${specs_dir}/pathcov-${PATHCOV_MODE}.specs")
    message(STATUS "Installing: ${file}")
    configure_file("${PATHCOV_SPECS_TEMPLATE}" "${file}" @ONLY)
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${file}")
  endif()
endforeach()
