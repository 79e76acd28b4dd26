# Passed to llama-cpp-python's build as -DCMAKE_PROJECT_INCLUDE=<this file> (README, .ci/run, docs/run.md).
#
# CMake runs this file after every project() call. llama-cpp-python forces llama.cpp's `common` library
# on (LLAMA_BUILD_COMMON, set with FORCE before it adds llama.cpp), yet its Python package loads only
# libllama and the ggml libraries and never `common`, which is most of the build (chat templates,
# the JSON and Jinja engines). Turning the option off again once llama.cpp's own project() has run,
# before its option() reads it, leaves `common` and its install rule out: the same wheel, minus one
# unused library, in a little over half the time on 2 cores (2 min 36 s against 4 min 30 s, docs/run.md).
if(PROJECT_NAME STREQUAL "llama.cpp")
    set(LLAMA_BUILD_COMMON OFF CACHE BOOL "llama.cpp common library (unused by llama-cpp-python)" FORCE)
endif()
