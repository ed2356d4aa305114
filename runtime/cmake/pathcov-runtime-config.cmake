# find_package(pathcov-runtime) -> imported target pathcov::runtime
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/pathcov-runtime-targets.cmake)
