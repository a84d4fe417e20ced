# Writes the version script of libmd5cine.so from the public headers: the library exports the
# functions and variables include/md5cine/*.h declare, and nothing else.
#   cmake -DMC_MAP=OUT.map -DMC_HEADERS="a.h;b.h" -P mc_export_map.cmake
#
# The headers are read as text, the way they are written (STYLE.md): comments, preprocessor lines,
# `extern "C" {` and __attribute__((...)) are dropped, what braces enclose is dropped (struct
# members, enum values, inline bodies), and the rest is cut into top-level declarations at `;`
# (and after the body of an inline definition). Of those, a typedef or a struct/enum/union
# declaration names no symbol, and a static (inline) function is not exported; any other
# declaration with a parameter list declares the function named just before its `(`; an `extern`
# declaration without one declares a variable. A declaration this reading cannot name (a
# function returning a function pointer, several declarators, a name not starting with mc_) stops
# the build with a message, so the map never silently misses a symbol. The test library_exports
# checks the result independently against GCC's own list of the declarations (-aux-info).
cmake_minimum_required(VERSION 3.21)
if(NOT MC_MAP OR NOT MC_HEADERS)
  message(FATAL_ERROR "usage: cmake -DMC_MAP=OUT -DMC_HEADERS=H1;H2... -P mc_export_map.cmake")
endif()

# The text of a header without comments (string literals kept as they are).
function(mc_strip_comments text out)
  set(result "")
  while(TRUE)
    set(head "")
    if(text MATCHES "^([^\"/]+)")
      set(head "${CMAKE_MATCH_1}")
    endif()
    string(LENGTH "${head}" n)
    string(APPEND result "${head}")
    string(SUBSTRING "${text}" ${n} -1 text)
    if(text STREQUAL "")
      break()
    endif()
    string(SUBSTRING "${text}" 0 2 two)
    if(two STREQUAL "/*")
      string(FIND "${text}" "*/" end)
      if(end EQUAL -1)
        message(FATAL_ERROR "mc_export_map: unterminated comment")
      endif()
      math(EXPR end "${end} + 2")
      string(SUBSTRING "${text}" ${end} -1 text)
      string(APPEND result " ")
    elseif(two STREQUAL "//")
      string(FIND "${text}" "\n" end)
      if(end EQUAL -1)
        set(text "")
      else()
        string(SUBSTRING "${text}" ${end} -1 text)
      endif()
    elseif(two MATCHES "^\"")
      string(REGEX MATCH "^\"([^\"\\\\\n]|\\\\.)*\"" lit "${text}")
      if(lit STREQUAL "")
        message(FATAL_ERROR "mc_export_map: unterminated string")
      endif()
      string(LENGTH "${lit}" n)
      string(APPEND result "${lit}")
      string(SUBSTRING "${text}" ${n} -1 text)
    else()
      string(APPEND result "/")
      string(SUBSTRING "${text}" 1 -1 text)
    endif()
  endwhile()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

set(mc_symbols "")
set(mc_where "")
foreach(header IN LISTS MC_HEADERS)
  file(READ "${header}" text)
  # CMake lists split at ';' and treat brackets specially: stand-ins keep the text one string.
  string(REPLACE ";" "@SEMI@" text "${text}")
  string(REPLACE "[" "@LB@" text "${text}")
  string(REPLACE "]" "@RB@" text "${text}")
  mc_strip_comments("${text}" text)
  string(REGEX REPLACE "\\\\\n" " " text "${text}")                 # continued lines
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" text "${text}")   # preprocessor lines
  string(REGEX REPLACE "extern[ \t\n]*\"C\"[ \t\n]*{" " " text "${text}")
  string(REGEX REPLACE "__attribute__[ \t\n]*\\(\\(([^()]|\\([^()]*\\))*\\)\\)" " " text "${text}")
  string(REGEX REPLACE "[ \t\n]+" " " text "${text}")

  # Top-level declarations: the text outside braces, cut at ';' and after inline bodies.
  # ';' would split the list of pieces: a backquote (which C code outside strings never holds)
  # stands for it.
  if(text MATCHES "`")
    message(FATAL_ERROR "mc_export_map: ${header}: a backquote outside comments")
  endif()
  string(REPLACE "@SEMI@" "`" text "${text}")
  string(REGEX MATCHALL "[^{}`]*[{}`]" pieces "${text}")
  set(tail "")
  if(text MATCHES "([^{}`]+)$")
    set(tail "${CMAKE_MATCH_1}")
  endif()
  set(depth 0)
  set(decl "")
  set(decls "")
  foreach(piece IN LISTS pieces)
    string(REGEX MATCH "[{}`]$" delim "${piece}")
    string(REGEX REPLACE "[{}`]$" "" body "${piece}")
    if(depth EQUAL 0)
      string(APPEND decl "${body}")
    endif()
    if(delim STREQUAL "{")
      if(depth EQUAL 0)
        string(APPEND decl " {} ")
      endif()
      math(EXPR depth "${depth} + 1")
    elseif(delim STREQUAL "}")
      if(depth GREATER 0)               # a lone '}' at the top closes extern "C"
        math(EXPR depth "${depth} - 1")
      endif()
      if(depth EQUAL 0 AND decl MATCHES "\\) *{} *$")   # an inline definition's body
        list(APPEND decls "${decl}")
        set(decl "")
      endif()
    elseif(delim STREQUAL "`" AND depth EQUAL 0)
      list(APPEND decls "${decl}")
      set(decl "")
    endif()
  endforeach()
  string(STRIP "${decl}${tail}" decl)
  if(NOT decl STREQUAL "")
    message(FATAL_ERROR "mc_export_map: ${header}: text after the last declaration: '${decl}'")
  endif()

  foreach(decl IN LISTS decls)
    string(STRIP "${decl}" decl)
    string(REPLACE "@LB@" "[" shown "${decl}")
    string(REPLACE "@RB@" "]" shown "${shown}")
    if(decl STREQUAL "" OR decl MATCHES "^typedef "
       OR decl MATCHES "^(_Static_assert|static_assert) *\\(")
      continue()
    endif()
    set(name "")
    if(decl MATCHES "\\(")
      if(decl MATCHES "^(static|extern static|static inline|inline static) ")
        continue()                      # an inline helper: compiled into the caller
      endif()
      string(REGEX MATCH "^[^(]*" before "${decl}")
      if(before MATCHES "([A-Za-z_][A-Za-z0-9_]*) *$")
        set(name "${CMAKE_MATCH_1}")
      endif()
      if(before MATCHES ",")
        set(name "")
      endif()
    elseif(decl MATCHES "^extern ")
      string(REGEX REPLACE "(@LB@[^@]*@RB@ *)+$" "" var "${decl}")
      if(NOT var MATCHES "," AND var MATCHES "([A-Za-z_][A-Za-z0-9_]*) *$")
        set(name "${CMAKE_MATCH_1}")
      endif()
    elseif(decl MATCHES "^(struct|union|enum) [^{]*({} *)?$" OR decl MATCHES "^enum *{} *$")
      continue()                        # a type: no symbol
    else()
      message(FATAL_ERROR "mc_export_map: ${header}: not a declaration this script can read "
                          "(a definition in a header?): '${shown}'")
    endif()
    if(NOT name MATCHES "^mc_[A-Za-z0-9_]+$")
      message(FATAL_ERROR "mc_export_map: ${header}: cannot name the mc_ symbol this "
                          "declares: '${shown}'")
    endif()
    list(APPEND mc_symbols "${name}")
  endforeach()
endforeach()

list(REMOVE_DUPLICATES mc_symbols)
list(SORT mc_symbols)
list(LENGTH mc_symbols count)
string(CONCAT map
  "/* Written by cmake/mc_export_map.cmake from include/md5cine/*.h: the ${count} symbols\n"
  " * libmd5cine.so exports, every function and variable its public headers declare. */\n"
  "{\n    global:\n")
foreach(name IN LISTS mc_symbols)
  string(APPEND map "        ${name};\n")
endforeach()
string(APPEND map "    local:\n        *;\n};\n")
file(WRITE "${MC_MAP}" "${map}")
