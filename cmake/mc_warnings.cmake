# mc_target_defaults(tgt): our warning set, -Werror and sanitizers, on our own targets only.
set(MC_WARNINGS
  -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wmissing-declarations -Wold-style-definition -Wwrite-strings -Wcast-qual
  -Wpointer-arith -Wformat=2 -Wundef -Wvla -Wdouble-promotion -Wfloat-conversion
  -Wsign-conversion -Wimplicit-fallthrough -Wno-missing-field-initializers)

if(MC_FUZZ AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MC_FUZZ needs clang: configure with -DCMAKE_C_COMPILER=clang")
endif()

function(mc_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE ${MC_WARNINGS})
  if(MC_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
  if(MC_SANITIZE)
    # -O1 in a Debug build: the sanitizers' own advice for tolerable speed (at -O0 the
    # instrumented pixel loops made the sanitizer suite the slowest part of the tests); the
    # frame pointers keep their reports' stacks whole
    target_compile_options(${tgt} PRIVATE -fsanitize=address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer $<$<CONFIG:Debug>:-O1>)
    target_link_options(${tgt} PRIVATE -fsanitize=address,undefined)
  endif()
  if(MC_FUZZ)
    target_compile_options(${tgt} PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
    target_compile_definitions(${tgt} PRIVATE FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
  endif()
endfunction()
