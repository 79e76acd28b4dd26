/* _cperm: the permutation test's shuffles and rank sums in one pass (optional accelerator of _stats.py).
 *
 * permutation_hits(capsule, r2, bound, hits, n, m, permutations, use_fail) draws
 * `permutations` shuffles of 0..n-1 exactly as numpy's Generator.permuted does
 * for the rows of np.broadcast_to(arange(n), (permutations, n)) along axis 1
 * (each row starts as the identity; Fisher-Yates from the last position down,
 * j = random_interval(i), numpy's masked rejection on next_uint32), from the
 * Generator's own bit generator (its "BitGenerator" capsule), so the stream
 * and the generator's state afterwards are the same as numpy's. For each
 * shuffle and each metric k it sums r2[k] over the first m shuffled positions
 * and counts the sums >= bound[k] (use_fail) or <= bound[k] (not use_fail)
 * into hits[k]. Nothing is kept but the counts: numpy materialises every
 * shuffle (permutations x n integers) and then gathers from it.
 * The caller holds the bit generator's lock; the GIL is released meanwhile.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* numpy/random/bitgen.h (stable since numpy 1.17) */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

/* numpy's random_interval (distributions.c): uniform on [0, max] by masked rejection, mask being the
 * smallest 2^b - 1 >= max (the caller keeps it, since it changes only at powers of two). The generator's
 * functions are passed by value so the loop does not reload them after every store into idx. */
static inline uint64_t random_interval(bitgen_t bg, uint64_t max, uint64_t mask)
{
    uint64_t value;
    if (max == 0) return 0;
    if (max <= 0xffffffffUL) {
        while ((value = (bg.next_uint32(bg.state) & mask)) > max)
            ;
    } else {
        while ((value = (bg.next_uint64(bg.state) & mask)) > max)
            ;
    }
    return value;
}

static void count_hits(bitgen_t bg, const int64_t *r2, const int64_t *bound, int64_t *hits, Py_ssize_t k,
                       Py_ssize_t n, Py_ssize_t m, Py_ssize_t permutations, int use_fail, Py_ssize_t *idx)
{
    uint64_t top = (uint64_t)(n - 1);
    for (int shift = 1; shift < 64; shift <<= 1) top |= top >> shift;
    for (Py_ssize_t p = 0; p < permutations; p++) {
        uint64_t mask = top;
        for (Py_ssize_t j = 0; j < n; j++) idx[j] = j;
        for (Py_ssize_t i = n - 1; i >= 1; i--) {
            if ((mask >> 1) >= (uint64_t)i) mask >>= 1;
            Py_ssize_t j = (Py_ssize_t)random_interval(bg, (uint64_t)i, mask);
            Py_ssize_t t = idx[j];
            idx[j] = idx[i];
            idx[i] = t;
        }
        for (Py_ssize_t q = 0; q < k; q++) {
            const int64_t *row = r2 + q * n;
            int64_t s = 0;
            for (Py_ssize_t j = 0; j < m; j++) s += row[idx[j]];
            hits[q] += use_fail ? (s >= bound[q]) : (s <= bound[q]);
        }
    }
}

static int check(Py_buffer *buf, Py_ssize_t items, const char *name)
{
    if (buf->itemsize != 8 || buf->len != items * 8 || !PyBuffer_IsContiguous(buf, 'C')) {
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous int64 array of %zd items", name, items);
        return -1;
    }
    return 0;
}

static PyObject *permutation_hits(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule;
    Py_buffer r2, bound, hits;
    Py_ssize_t n, m, permutations;
    int use_fail;
    if (!PyArg_ParseTuple(args, "Oy*y*w*nnnp", &capsule, &r2, &bound, &hits, &n, &m, &permutations, &use_fail))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t k = bound.len / 8;
    bitgen_t *bg = PyCapsule_GetPointer(capsule, "BitGenerator");
    Py_ssize_t *idx = NULL;
    if (bg == NULL) goto done;
    if (n < 1 || m < 0 || m > n || permutations < 0) {
        PyErr_SetString(PyExc_ValueError, "need n >= 1, 0 <= m <= n and permutations >= 0");
        goto done;
    }
    if (check(&r2, k * n, "r2") < 0 || check(&bound, k, "bound") < 0 || check(&hits, k, "hits") < 0) goto done;
    idx = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    if (idx == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    count_hits(*bg, r2.buf, bound.buf, hits.buf, k, n, m, permutations, use_fail, idx);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(idx);
    PyBuffer_Release(&r2);
    PyBuffer_Release(&bound);
    PyBuffer_Release(&hits);
    return result;
}

static PyMethodDef methods[] = {
    {"permutation_hits", permutation_hits, METH_VARARGS,
     "permutation_hits(capsule, r2, bound, hits, n, m, permutations, use_fail): add the shuffles' hits to hits"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "_cperm", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__cperm(void) { return PyModule_Create(&module); }
