/* Test aid for running PySide6's Qt6Core.dll under wine 8, which has no icuuc.dll.
 * Windows 10 1903 and later ship icuuc.dll; Qt6Core.dll imports these 20 converter
 * functions from it. ucnv_open fails, so Qt keeps its built-in UTF-8/UTF-16/Latin-1
 * codecs. Never part of a bundle: on Windows it would shadow the system's ICU. */
#include <stddef.h>
#include <stdint.h>
#define API __declspec(dllexport)
typedef int UErrorCode;
enum { U_FILE_ACCESS_ERROR = 4 };
API void *ucnv_open(const char *name, UErrorCode *err) { (void)name; if (err) *err = U_FILE_ACCESS_ERROR; return NULL; }
API void ucnv_close(void *cnv) { (void)cnv; }
API void UCNV_FROM_U_CALLBACK_SUBSTITUTE(void) {}
API void UCNV_TO_U_CALLBACK_SUBSTITUTE(void) {}
API void ucnv_reset(void *cnv) { (void)cnv; }
API int8_t ucnv_getMaxCharSize(const void *cnv) { (void)cnv; return 1; }
API const char *ucnv_getName(const void *cnv, UErrorCode *err) { (void)cnv; (void)err; return NULL; }
API void ucnv_getToUCallBack(void) {}
API void ucnv_getFromUCallBack(void) {}
API void ucnv_setToUCallBack(void) {}
API void ucnv_setFromUCallBack(void) {}
API void ucnv_cbToUWriteUChars(void) {}
API void ucnv_toUnicode(void) {}
API void ucnv_cbFromUWriteUChars(void) {}
API int32_t ucnv_toUCountPending(const void *cnv, UErrorCode *err) { (void)cnv; (void)err; return 0; }
API int32_t ucnv_fromUCountPending(const void *cnv, UErrorCode *err) { (void)cnv; (void)err; return 0; }
API const char *ucnv_getStandardName(const char *a, const char *b, UErrorCode *err) { (void)a; (void)b; (void)err; return NULL; }
API const char *ucnv_getAvailableName(int32_t n) { (void)n; return NULL; }
API int32_t ucnv_countAvailable(void) { return 0; }
API void ucnv_fromUnicode(void) {}
