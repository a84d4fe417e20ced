/* The byte scanner of Doom's declaration files (decl_scan.h). */
#include <string.h>
#include <strings.h>

#include "decl_scan.h"

/* White space (every byte up to ' ', as idLexer::ReadWhiteSpace) and comments. */
void mc_scan_space(mc_scan *s)
{
    while (s->p < s->end) {
        char c = *s->p;

        if (c == '\n') {
            s->line++;
            s->line_start = ++s->p;
        } else if ((unsigned char)c <= ' ') {
            s->p++;
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '/') {
            while (s->p < s->end && *s->p != '\n')
                s->p++;
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
            s->p += 2;
            while (s->p < s->end && !(*s->p == '*' && s->p + 1 < s->end && s->p[1] == '/')) {
                if (*s->p == '\n') {
                    s->line++;
                    s->line_start = s->p + 1;
                }
                s->p++;
            }
            s->p = s->p < s->end ? s->p + 2 : s->end;
        } else {
            break;
        }
    }
}

static bool is_brace(char c)
{
    return c == '{' || c == '}';
}

/* The next token: a "string" (no newline inside), a brace, or a run of other bytes. */
bool mc_scan_token(mc_scan *s, mc_scan_tok *t)
{
    const char *q;

    mc_scan_space(s);
    if (s->p >= s->end)
        return false;
    q = s->p;
    t->start = (size_t)(q - s->buf);
    t->line = s->line;
    t->col = (int)(q - s->line_start) + 1;
    t->string = *q == '"';
    if (t->string) {
        s->p++;
        while (s->p < s->end && *s->p != '"' && *s->p != '\n')
            s->p++;
        t->text = q + 1;
        t->len = (size_t)(s->p - t->text);
        if (s->p < s->end && *s->p == '"')
            s->p++;
    } else if (is_brace(*q)) {
        s->p++;
        t->text = q;
        t->len = 1;
    } else {
        /* "//" inside a run does not start a comment: Doom reads path names whole
         * (idLexer::ReadName with LEXFL_ALLOWPATHNAMES), and so does md5cine's lexer. */
        while (s->p < s->end && (unsigned char)*s->p > ' ' && !is_brace(*s->p) && *s->p != '"')
            s->p++;
        t->text = q;
        t->len = (size_t)(s->p - q);
    }
    return true;
}

bool mc_scan_is(const mc_scan_tok *t, const char *word)
{
    return !t->string && t->len == strlen(word) && strncasecmp(t->text, word, t->len) == 0;
}

bool mc_scan_brace(const mc_scan_tok *t, char c)
{
    return !t->string && t->len == 1 && t->text[0] == c;
}

/* After an opening '{': everything to its matching '}' (idLexer::SkipBracedSection), or to the
 * end of the text. */
void mc_scan_braced(mc_scan *s)
{
    mc_scan_tok t;
    long depth = 1;

    while (depth > 0 && mc_scan_token(s, &t)) {
        if (mc_scan_brace(&t, '{'))
            depth++;
        else if (mc_scan_brace(&t, '}'))
            depth--;
    }
}

