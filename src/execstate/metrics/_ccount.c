/* _ccount: instruction-event counter in C for the metrics probe (optional accelerator).
 *
 * It counts exactly the events the pure-Python probe counts, only cheaper:
 *  - CPython 3.12+: a sys.monitoring INSTRUCTION callback. A location that is
 *    not counted (foreign code, excluded line, RESUME) returns DISABLE the first
 *    time it fires, so afterwards only counted instructions reach it.
 *  - CPython 3.11: a C trace function (PyEval_SetTrace) that turns on opcode
 *    events for owned frames at their call event and counts them; line events
 *    of owned frames are forwarded to a Python callable (state observations).
 * Which instructions count is decided in Python: classify(code) returns a bytes
 * table with one byte per code unit (nonzero = counted) or None (not owned).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

static long long counted = 0;
static PyObject *classify = NULL;      /* callable(code) -> bytes | None */
static PyObject *line_callback = NULL; /* callable(frame) | None (3.11 only) */
static PyObject *disable = NULL;       /* sys.monitoring.DISABLE (3.12+) */

/* --- code object -> table, keyed by pointer (hashing a code object is slow) --- */
typedef struct { PyObject *code; PyObject *table; } Slot;
static Slot *slots = NULL;
static Py_ssize_t capacity = 0, used = 0;
static PyObject *last_code = NULL, *last_table = NULL;

static Py_ssize_t slot_index(Slot *array, Py_ssize_t cap, PyObject *code)
{
    size_t i = ((size_t)code >> 4) & (size_t)(cap - 1);
    while (array[i].code != NULL && array[i].code != code)
        i = (i + 1) & (size_t)(cap - 1);
    return (Py_ssize_t)i;
}

static int grow(void)
{
    Py_ssize_t new_cap = capacity ? capacity * 2 : 256;
    Slot *fresh = PyMem_Calloc((size_t)new_cap, sizeof(Slot));
    if (fresh == NULL) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < capacity; i++)
        if (slots[i].code != NULL)
            fresh[slot_index(fresh, new_cap, slots[i].code)] = slots[i];
    PyMem_Free(slots);
    slots = fresh;
    capacity = new_cap;
    return 0;
}

/* Borrowed reference to the table of code (bytes or None); NULL with an exception set on error. */
static PyObject *table_of(PyObject *code)
{
    if (code == last_code) return last_table;
    if (capacity == 0 && grow() < 0) return NULL;
    Py_ssize_t i = slot_index(slots, capacity, code);
    if (slots[i].code == NULL) {
        PyObject *table = PyObject_CallOneArg(classify, code);
        if (table == NULL) return NULL;
        if (table != Py_None && !PyBytes_Check(table)) {
            Py_DECREF(table);
            PyErr_SetString(PyExc_TypeError, "classify must return bytes or None");
            return NULL;
        }
        if ((used + 1) * 2 > capacity) {
            if (grow() < 0) { Py_DECREF(table); return NULL; }
            i = slot_index(slots, capacity, code);
        }
        Py_INCREF(code);
        slots[i].code = code;
        slots[i].table = table;
        used++;
    }
    last_code = code;
    last_table = slots[i].table;
    return last_table;
}

static int is_counted(PyObject *table, Py_ssize_t offset)
{
    Py_ssize_t unit = offset / 2;
    return table != Py_None && unit >= 0 && unit < PyBytes_GET_SIZE(table)
           && PyBytes_AS_STRING(table)[unit] != 0;
}

#if PY_VERSION_HEX >= 0x030C0000
/* sys.monitoring INSTRUCTION callback: (code, instruction_offset). */
static PyObject *on_instruction(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "on_instruction(code, offset)");
        return NULL;
    }
    PyObject *table = table_of(args[0]);
    if (table == NULL) return NULL;
    Py_ssize_t offset = PyLong_AsSsize_t(args[1]);
    if (offset == -1 && PyErr_Occurred()) return NULL;
    if (!is_counted(table, offset)) return Py_NewRef(disable);
    counted++;
    Py_RETURN_NONE;
}
#else
/* 3.11 trace function. */
static int tracer(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    if (what != PyTrace_CALL && what != PyTrace_OPCODE && what != PyTrace_LINE) return 0;
    PyCodeObject *code = PyFrame_GetCode(frame);
    PyObject *table = table_of((PyObject *)code);
    Py_DECREF(code);
    if (table == NULL) return -1;
    if (table == Py_None) return 0;
    if (what == PyTrace_CALL)
        return PyObject_SetAttrString((PyObject *)frame, "f_trace_opcodes", Py_True);
    if (what == PyTrace_OPCODE) {
        if (is_counted(table, PyFrame_GetLasti(frame))) counted++;
        return 0;
    }
    if (line_callback != NULL && line_callback != Py_None) {
        PyObject *res = PyObject_CallOneArg(line_callback, (PyObject *)frame);
        if (res == NULL) return -1;
        Py_DECREF(res);
    }
    return 0;
}

static PyObject *start(PyObject *self, PyObject *unused)
{
    PyEval_SetTrace(tracer, NULL);
    Py_RETURN_NONE;
}

static PyObject *stop(PyObject *self, PyObject *unused)
{
    PyEval_SetTrace(NULL, NULL);
    Py_RETURN_NONE;
}
#endif

static PyObject *configure(PyObject *self, PyObject *args)
{
    PyObject *cls, *line, *dis;
    if (!PyArg_ParseTuple(args, "OOO", &cls, &line, &dis)) return NULL;
    Py_XSETREF(classify, Py_NewRef(cls));
    Py_XSETREF(line_callback, Py_NewRef(line));
    Py_XSETREF(disable, Py_NewRef(dis));
    Py_RETURN_NONE;
}

static PyObject *count(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(counted);
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(classify, line_callback, disable)"},
    {"count", count, METH_NOARGS, "Instruction events counted so far."},
#if PY_VERSION_HEX >= 0x030C0000
    {"on_instruction", (PyCFunction)(void (*)(void))on_instruction, METH_FASTCALL, "sys.monitoring INSTRUCTION callback."},
#else
    {"start", start, METH_NOARGS, "Install the C trace function on this thread."},
    {"stop", stop, METH_NOARGS, "Remove the trace function from this thread."},
#endif
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ccount", NULL, -1, methods};

PyMODINIT_FUNC PyInit__ccount(void)
{
    return PyModule_Create(&module);
}
