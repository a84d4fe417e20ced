/* JSON strings, as every JSON line md5cine prints writes them: quotes, backslashes and control
 * bytes escaped (\u00XX), valid UTF-8 passed through, any other byte written as the code point
 * of the same value, so the output is always valid JSON whatever bytes a file name holds. */
#ifndef MC_JSON_H
#define MC_JSON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes s[0..len) as a JSON string to out. */
void mc_json_write_string(FILE *out, const char *s, size_t len);

/* The same for a NUL-terminated string; NULL is written as null. */
void mc_json_write_cstr(FILE *out, const char *s);

/* A float as the shortest decimal that reads back as the same float (0.95 prints "0.95",
 * not "0.949999988"); integers without a point. A value that is not finite prints null. */
void mc_json_write_float(FILE *out, float v);

/* The same text into buf[0..cap) (at least 32 bytes); returns buf. */
const char *mc_format_float(float v, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
