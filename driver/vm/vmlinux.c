/*
 * vmlinux.c - unpacking a bzImage's kernel for a PVH boot.
 *
 * The one idea: a bzImage is a small decompressor followed by the kernel,
 * an ELF file, compressed with one of a few formats; as the kernel's own
 * scripts/extract-vmlinux does, look for each format's magic and take the
 * first place that unpacks to an ELF file. qemu boots an ELF kernel directly
 * only through its PVH entry, so the result is used only when it carries
 * that note; otherwise the bzImage boots as it is (slower under TCG, never
 * wrong).
 */
#include "vm/vmlinux.h"

#include <elf.h>
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include "core/util.h"
#include "vm/vmcache.h"

#define OUT_MAX ((size_t)1 << 30) /* no kernel is near 1 GiB unpacked */

static int grow(struct sbuf *o, size_t want)
{
    if (o->cap - o->len >= want)
        return 0;
    if (o->len + want > OUT_MAX)
        return -1;
    size_t cap = o->cap ? o->cap : 1 << 24;
    while (cap - o->len < want)
        cap *= 2;
    o->s = xrealloc(o->s, cap);
    o->cap = cap;
    return 0;
}

static int unpack_gzip(const unsigned char *in, size_t n, struct sbuf *o)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return -1;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
    int rc;
    do {
        if (grow(o, 1 << 20) < 0) {
            rc = Z_MEM_ERROR;
            break;
        }
        z.next_out = (unsigned char *)o->s + o->len;
        z.avail_out = 1 << 20;
        rc = inflate(&z, Z_NO_FLUSH);
        o->len = (size_t)((char *)z.next_out - o->s);
    } while (rc == Z_OK);
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

static int unpack_xz(const unsigned char *in, size_t n, struct sbuf *o)
{
    lzma_stream z = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&z, UINT64_MAX, 0) != LZMA_OK)
        return -1;
    z.next_in = in;
    z.avail_in = n;
    lzma_ret rc;
    do {
        if (grow(o, 1 << 20) < 0) {
            rc = LZMA_MEM_ERROR;
            break;
        }
        z.next_out = (uint8_t *)o->s + o->len;
        z.avail_out = 1 << 20;
        rc = lzma_code(&z, LZMA_FINISH);
        o->len = (size_t)((char *)z.next_out - o->s);
    } while (rc == LZMA_OK);
    lzma_end(&z);
    return rc == LZMA_STREAM_END ? 0 : -1;
}

static int unpack_zstd(const unsigned char *in, size_t n, struct sbuf *o)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    if (!z)
        return -1;
    ZSTD_initDStream(z);
    ZSTD_inBuffer ib = {in, n, 0};
    size_t rc;
    do {
        if (grow(o, 1 << 20) < 0) {
            rc = 1;
            break;
        }
        ZSTD_outBuffer ob = {o->s + o->len, 1 << 20, 0};
        rc = ZSTD_decompressStream(z, &ob, &ib);
        o->len += ob.pos;
    } while (!ZSTD_isError(rc) && rc != 0 && ib.pos < ib.size);
    ZSTD_freeDStream(z);
    return !ZSTD_isError(rc) && rc == 0 ? 0 : -1;
}

int vmlinux_has_pvh(const unsigned char *buf, size_t len)
{
    const Elf64_Ehdr *eh = (const void *)buf;
    if (len < sizeof *eh || memcmp(buf, ELFMAG, SELFMAG) || buf[EI_CLASS] != ELFCLASS64 ||
        eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
        (len - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
        return 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, buf + eh->e_phoff + (size_t)i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_NOTE || ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
            continue;
        for (size_t at = ph.p_offset, end = ph.p_offset + ph.p_filesz; at + 12 <= end;) {
            Elf64_Nhdr nh;
            memcpy(&nh, buf + at, 12);
            size_t name = at + 12, desc = name + ((nh.n_namesz + 3) & ~3u);
            if (nh.n_namesz == 4 && name + 4 <= end && !memcmp(buf + name, "Xen", 4) &&
                nh.n_type == 18 /* XEN_ELFNOTE_PHYS32_ENTRY */)
                return 1;
            at = desc + ((nh.n_descsz + 3) & ~3u);
        }
    }
    return 0;
}

/* The first payload that unpacks to an ELF kernel, into o. */
static int unpack(const unsigned char *img, size_t n, struct sbuf *o)
{
    static const struct {
        const char *magic;
        size_t len;
        int (*fn)(const unsigned char *, size_t, struct sbuf *);
    } fmts[] = {
        {"\037\213\010", 3, unpack_gzip},
        {"\3757zXZ\000", 6, unpack_xz},
        {"\050\265\057\375", 4, unpack_zstd},
    };
    for (size_t at = 0x200; at + 8 < n; at++)
        for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
            if (img[at] != (unsigned char)fmts[f].magic[0] ||
                memcmp(img + at, fmts[f].magic, fmts[f].len))
                continue;
            o->len = 0;
            if (fmts[f].fn(img + at, n - at, o) == 0 && o->len > 4 && !memcmp(o->s, ELFMAG, 4))
                return 0;
        }
    return -1;
}

int vmlinux_get(const char *image, const char *sha256, char *path, size_t pathlen, char *why,
                size_t whylen)
{
    char dir[1024];
    int rc = vmcache_dir(dir, sizeof dir, why, whylen);
    if (rc < 0)
        return -1;
    snprintf(path, pathlen, "%s/vmlinux-%.16s", dir, sha256);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return 0;
    char none[1100];
    snprintf(none, sizeof none, "%s/vmlinux-%.16s.none", dir, sha256);
    if (stat(none, &st) == 0) { /* looked before: no usable payload */
        snprintf(why, whylen, "no PVH kernel inside (looked before)");
        return 1;
    }
    struct sbuf img = {0}, out = {0};
    rc = sbuf_read_file(&img, image);
    if (rc < 0) {
        snprintf(why, whylen, "%s: %s", image, strerror(-rc));
        return -1;
    }
    int usable = unpack((const unsigned char *)img.s, img.len, &out) == 0 &&
                 vmlinux_has_pvh((const unsigned char *)out.s, out.len);
    sbuf_free(&img);
    if (!usable) {
        sbuf_free(&out);
        write_file_atomic(none, "", 0);
        snprintf(why, whylen, "no gzip, xz or zstd ELF kernel with a PVH entry inside");
        return 1;
    }
    rc = write_file_atomic(path, out.s, out.len);
    sbuf_free(&out);
    if (rc < 0) {
        snprintf(why, whylen, "%s: %s", path, strerror(-rc));
        return -1;
    }
    return 0;
}
