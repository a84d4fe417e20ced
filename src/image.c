/* placeholder: the image module (PNG write, image read) replaces this file */
#include <md5cine/error.h>
