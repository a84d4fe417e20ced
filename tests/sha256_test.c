/* SHA-256 (core/sha256.h) against the example digests of NIST's "Cryptographic Standards and
 * Guidelines: Examples with Intermediate Values" (SHA256.pdf, SHA2_Additional.pdf) and
 * FIPS 180-2 appendix B. */
#include <stdio.h>
#include <string.h>

#include "core/sha256.h"
#include "test.h"

static void hex(const uint8_t d[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The digest of s fed in pieces of `step` bytes. */
static void digest_of(const char *s, size_t len, size_t step, char out[65])
{
    mc_sha256 h;
    uint8_t d[32];

    mc_sha256_init(&h);
    for (size_t i = 0; i < len; i += step)
        mc_sha256_update(&h, s + i, len - i < step ? len - i : step);
    mc_sha256_final(&h, d);
    hex(d, out);
}

TEST(one_block_message_abc)
{
    char out[65];

    digest_of("abc", 3, 3, out);
    EXPECT_EQ_STR(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(empty_message)
{
    char out[65];

    digest_of("", 0, 1, out);
    EXPECT_EQ_STR(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* 56 bytes: the padding's length no longer fits the first block, so there are two. */
TEST(two_block_message_in_any_pieces)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    const char *want = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    char out[65];

    for (size_t step = 1; step <= 56; step++) {
        digest_of(m, strlen(m), step, out);
        EXPECT_EQ_STR(out, want);
    }
}

TEST(a_million_a)
{
    static char a[1000000];
    char out[65];

    memset(a, 'a', sizeof a);
    digest_of(a, sizeof a, 4093, out);
    EXPECT_EQ_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
