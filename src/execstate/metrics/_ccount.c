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
#include <structmember.h> /* PyMember_GetOne (3.11 declares it only here) */

#ifndef CO_OPTIMIZED
#define CO_OPTIMIZED 0x0001
#endif

static long long counted = 0;
static PyObject *classify = NULL;      /* callable(code) -> bytes | None */
static PyObject *line_callback = NULL; /* callable(frame) | None (3.11 only) */
static PyObject *disable = NULL;       /* sys.monitoring.DISABLE (3.12+) */
static long long trace_budget = -1;    /* counted events allowed; -1: no budget */
static PyObject *over_budget = NULL;   /* callable() run once when the budget is exceeded (it ends the run) */

/* Count one event; past the budget, call over_budget (which does not return unless it fails). */
static int count_one(void)
{
    counted++;
    if (trace_budget >= 0 && counted > trace_budget && over_budget != NULL && over_budget != Py_None) {
        PyObject *res = PyObject_CallNoArgs(over_budget);
        if (res == NULL) return -1;
        Py_DECREF(res);
    }
    return 0;
}

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
    if (count_one() < 0) return NULL;
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
        if (is_counted(table, PyFrame_GetLasti(frame))) return count_one();
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

/* --- state walker: |S_t| of one observation (mirrors _probe.walk exactly) ------------- */
static PyObject *deque_type = NULL;       /* collections.deque */
static PyObject *owned_class = NULL;      /* callable(type) -> bool */
static PyObject *attribute_values = NULL; /* callable(instance) -> list */
static PyObject *main_name = NULL;        /* "__main__" */
static PyObject *module_key = NULL;       /* "__module__" */
static PyObject *slots_key = NULL;        /* "__slots__" */
static PyObject *dict_key = NULL;         /* "__dict__" */
static int instances_in_c = 1;            /* 0: every instance through owned_class/attribute_values */

/* Elements are scattered objects whose type is read from memory: ask for the header of the element this
   many steps ahead while the current one is classified (the walk is bound by memory latency, not work). */
#define PREFETCH_AHEAD 8

typedef struct { void *key; unsigned long gen; } SeenSlot;
static SeenSlot *seen = NULL;
static size_t seen_cap = 0, seen_used = 0;
static unsigned long generation = 0;

static int seen_grow(void)
{
    size_t cap = seen_cap ? seen_cap * 2 : 4096;
    SeenSlot *fresh = PyMem_Calloc(cap, sizeof(SeenSlot));
    if (fresh == NULL) { PyErr_NoMemory(); return -1; }
    for (size_t i = 0; i < seen_cap; i++) {
        if (seen[i].gen != generation) continue;
        size_t j = ((size_t)seen[i].key >> 4) & (cap - 1);
        while (fresh[j].gen == generation && fresh[j].key != NULL) j = (j + 1) & (cap - 1);
        fresh[j] = seen[i];
    }
    PyMem_Free(seen);
    seen = fresh;
    seen_cap = cap;
    return 0;
}

/* 1 if newly added, 0 if already seen in this observation, -1 on error. */
static int seen_add(void *key)
{
    if ((seen_used + 1) * 2 > seen_cap && seen_grow() < 0) return -1;
    size_t i = ((size_t)key >> 4) & (seen_cap - 1);
    while (seen[i].gen == generation) {
        if (seen[i].key == key) return 0;
        i = (i + 1) & (seen_cap - 1);
    }
    seen[i].key = key;
    seen[i].gen = generation;
    seen_used++;
    return 1;
}

typedef struct { PyObject **items; Py_ssize_t size, cap; } Stack;

static int push(Stack *stack, PyObject *value)
{
    if (stack->size == stack->cap) {
        Py_ssize_t cap = stack->cap ? stack->cap * 2 : 256;
        PyObject **items = PyMem_Realloc(stack->items, (size_t)cap * sizeof(PyObject *));
        if (items == NULL) { PyErr_NoMemory(); return -1; }
        stack->items = items;
        stack->cap = cap;
    }
    stack->items[stack->size++] = Py_NewRef(value);
    return 0;
}

/* The namespace dictionary of a class: tp_dict (3.12+ keeps a static builtin type's elsewhere). New reference. */
static PyObject *class_dict(PyTypeObject *kind)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyType_GetDict(kind);
#else
    return Py_XNewRef(kind->tp_dict);
#endif
}

/* The exact scalar types, by one read of the object's type: most elements of a large state are these. */
static inline int exact_scalar(PyObject *value)
{
    PyTypeObject *type = Py_TYPE(value);
    return type == &PyLong_Type || type == &PyBool_Type || type == &PyUnicode_Type || type == &PyFloat_Type
        || value == Py_None || type == &PyBytes_Type || type == &PyComplex_Type;
}

/* owned_class(kind) without calling Python, where the answer is read from memory with no code running:
   a class whose metaclass is exactly `type`, so `kind.__module__` is type's own getter. That getter reads
   a heap type's namespace (missing: AttributeError, i.e. not owned) and derives a static type's module
   from tp_name (the part before the last dot, else "builtins"). 1 or 0; -2: ask owned_class. */
static int owned_in_c(PyTypeObject *kind)
{
    if (!Py_IS_TYPE((PyObject *)kind, &PyType_Type)) return -2;
    if (!(kind->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        const char *dot = strrchr(kind->tp_name, '.');
        return dot != NULL && dot - kind->tp_name == 8 && memcmp(kind->tp_name, "__main__", 8) == 0;
    }
    PyObject *dict = class_dict(kind);
    if (dict == NULL) { PyErr_Clear(); return -2; }
    PyObject *module = PyDict_GetItemWithError(dict, module_key); /* str keys: no Python code runs */
    int owned = -2;
    if (module == NULL) owned = PyErr_Occurred() ? -2 : 0;
    else if (PyUnicode_CheckExact(module)) owned = PyUnicode_Compare(module, main_name) == 0;
    Py_DECREF(dict);
    if (PyErr_Occurred()) PyErr_Clear();
    return owned;
}

/* 1 if a slot name is an exact str that Python does not mangle (`__x` becomes `_Class__x`; `__x__` and `x`
   stay as written). */
static int slot_name_plain(PyObject *name)
{
    if (!PyUnicode_CheckExact(name)) return 0;
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    int dunder_start = len > 2 && PyUnicode_READ_CHAR(name, 0) == '_' && PyUnicode_READ_CHAR(name, 1) == '_';
    int dunder_end = len > 2 && PyUnicode_READ_CHAR(name, len - 1) == '_' && PyUnicode_READ_CHAR(name, len - 2) == '_';
    return !dunder_start || dunder_end;
}

/* 1 if a class's `__slots__` value names its slots in a form read with no Python code running: one exact
   str, or an exact tuple or list of exact strs, none of which needs name mangling (such a class is left to
   attribute_values). 0 otherwise. */
static int slot_names_plain(PyObject *slots)
{
    if (PyUnicode_CheckExact(slots)) return slot_name_plain(slots);
    if (!PyTuple_CheckExact(slots) && !PyList_CheckExact(slots)) return 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(slots); i++)
        if (!slot_name_plain(PySequence_Fast_GET_ITEM(slots, i))) return 0;
    return 1;
}

/* 1 if an instance of kind is a plain instance: every class of its MRO has metaclass exactly `type`, names
   its `__slots__` (if any) plainly (slot_names_plain), and none is set, frozenset or deque (a walked
   container, not an instance), and its `__dict__` attribute is type's own C getter (or there is none).
   Then attribute_values(instance) is the values of its `__dict__` and of its set slots and nothing else,
   read with no Python code running: 2 when a class of the MRO has `__slots__`, else 1. 0 otherwise. */
static int plain_in_c(PyTypeObject *kind)
{
    PyObject *mro = kind->tp_mro;
    int has_slots = 0;
    if (!Py_IS_TYPE((PyObject *)kind, &PyType_Type) || mro == NULL || !PyTuple_Check(mro)) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
        PyObject *klass = PyTuple_GET_ITEM(mro, i);
        if (!Py_IS_TYPE(klass, &PyType_Type) || klass == (PyObject *)&PySet_Type
            || klass == (PyObject *)&PyFrozenSet_Type || klass == deque_type)
            return 0;
        PyObject *dict = class_dict((PyTypeObject *)klass);
        if (dict == NULL) { PyErr_Clear(); return 0; }
        PyObject *slots = PyDict_GetItemWithError(dict, slots_key);
        int plain_slots = slots == NULL ? !PyErr_Occurred() : slot_names_plain(slots);
        has_slots |= slots != NULL;
        Py_DECREF(dict);
        if (!plain_slots) { PyErr_Clear(); return 0; }
    }
    /* `__dict__` is read by a C getter (or there is none: AttributeError), never by Python code */
    PyObject *getter = _PyType_Lookup(kind, dict_key);
    if (getter != NULL && !Py_IS_TYPE(getter, &PyGetSetDescr_Type)) return 0;
    return has_slots ? 2 : 1;
}

/* What the walk has learned of each class it met: how enter() treats its instances, plain_in_c's answer
   and whether it has a `__dict__` attribute. Classes only change when Python code runs, so all of it is
   forgotten (one stamp increment) at the start of each walk and whenever the walk calls back into Python
   (owned_class, attribute_values); nothing else the walk does runs Python code. A direct-mapped table
   keyed by the class's address: a collision only asks again. */
enum { ENTER_SCALAR, ENTER_SKIP, ENTER_WALKED, ENTER_ASK }; /* 1 slot; 0 slots; walked once; owned_class decides */
#define NOT_ASKED ((signed char)-3)
#define KIND_SLOTS 256
typedef struct {
    PyTypeObject *kind;
    unsigned long stamp;
    signed char enter, plain, has_dict; /* NOT_ASKED until asked this walk */
} KindInfo;
static KindInfo kinds[KIND_SLOTS];
static unsigned long kinds_stamp = 1;

static void memo_forget(void) { kinds_stamp++; }

static KindInfo *kind_info(PyTypeObject *kind)
{
    KindInfo *info = &kinds[((uintptr_t)kind * (uintptr_t)0x9E3779B97F4A7C15ull) >> (8 * sizeof(uintptr_t) - 8)];
    if (info->kind != kind || info->stamp != kinds_stamp) {
        info->kind = kind;
        info->stamp = kinds_stamp;
        info->enter = info->plain = info->has_dict = NOT_ASKED;
    }
    return info;
}

/* How enter() treats a value of kind that is not an exact scalar, in the order the Python _enter asks:
   a class is no slot, a scalar subclass one, a container or an owned class's instance is walked once, a
   class owned_in_c cannot judge goes to owned_class. */
static int enter_kind(PyTypeObject *kind)
{
    if (PyType_FastSubclass(kind, Py_TPFLAGS_TYPE_SUBCLASS)) return ENTER_SKIP;
    if (PyType_FastSubclass(kind, Py_TPFLAGS_LONG_SUBCLASS) || PyType_IsSubtype(kind, &PyFloat_Type)
        || PyType_IsSubtype(kind, &PyComplex_Type) || PyType_FastSubclass(kind, Py_TPFLAGS_UNICODE_SUBCLASS)
        || PyType_FastSubclass(kind, Py_TPFLAGS_BYTES_SUBCLASS))
        return ENTER_SCALAR;
    if (PyType_FastSubclass(kind, Py_TPFLAGS_DICT_SUBCLASS) || PyType_FastSubclass(kind, Py_TPFLAGS_LIST_SUBCLASS)
        || PyType_FastSubclass(kind, Py_TPFLAGS_TUPLE_SUBCLASS))
        return ENTER_WALKED;
    int owned = instances_in_c ? owned_in_c(kind) : -2;
    if (owned == 1 || PyType_IsSubtype(kind, &PySet_Type) || PyType_IsSubtype(kind, &PyFrozenSet_Type)
        || PyType_IsSubtype(kind, (PyTypeObject *)deque_type))
        return ENTER_WALKED;
    return owned == 0 ? ENTER_SKIP : ENTER_ASK;
}

/* plain_in_c(kind), asked once per walk. */
static int plain_of(PyTypeObject *kind)
{
    KindInfo *info = kind_info(kind);
    if (info->plain == NOT_ASKED) info->plain = (signed char)plain_in_c(kind);
    return info->plain;
}

/* Size contributed by value itself (1 for a scalar); queues containers/instances not yet seen. */
static long long enter(PyObject *value, Stack *stack, int *error)
{
    if (exact_scalar(value)) return 1;
    KindInfo *info = kind_info(Py_TYPE(value));
    if (info->enter == NOT_ASKED) info->enter = (signed char)enter_kind(Py_TYPE(value));
    switch (info->enter) {
    case ENTER_SCALAR: return 1;
    case ENTER_SKIP: return 0;
    case ENTER_ASK: {
        memo_forget();
        PyObject *res = PyObject_CallOneArg(owned_class, (PyObject *)Py_TYPE(value));
        int owned = res == NULL ? -1 : PyObject_IsTrue(res);
        Py_XDECREF(res);
        if (owned <= 0) { *error = owned < 0; return 0; }
        break;
    }
    }
    int fresh = seen_add(value);
    if (fresh < 0 || (fresh == 1 && push(stack, value) < 0)) *error = 1;
    return 0;
}

/* Sizes of a list's or tuple's elements. The size is read again each step: enter() may run Python
   code (a metaclass's __module__) that changes the list. An element that is the very object the
   previous one was, when that one was a scalar (no Python code ran since: the list is unchanged and
   still holds it), adds 1 again without being looked at: [0] * n and [inf] * n tables cost one
   pointer comparison per element. */
static long long enter_items(PyObject *node, int is_list, Stack *stack, int *error)
{
    PyObject **items = is_list ? ((PyListObject *)node)->ob_item : ((PyTupleObject *)node)->ob_item;
    PyObject *scalar = NULL; /* the previous element, when it was a scalar */
    long long total = 0;
    for (Py_ssize_t i = 0; !*error && i < (is_list ? PyList_GET_SIZE(node) : PyTuple_GET_SIZE(node)); i++) {
        if (is_list) items = ((PyListObject *)node)->ob_item; /* a resize may move the array */
        PyObject *item = items[i];
        if (item == scalar) { /* a run of one scalar: nothing runs while it is scanned, the list holds still */
            Py_ssize_t end = i + 1, size = is_list ? PyList_GET_SIZE(node) : PyTuple_GET_SIZE(node);
            const uintptr_t same = (uintptr_t)scalar;
            while (end + 8 <= size) { /* eight at a time, one branch: the scan runs at memory speed */
                uintptr_t differ = ((uintptr_t)items[end] ^ same) | ((uintptr_t)items[end + 1] ^ same)
                    | ((uintptr_t)items[end + 2] ^ same) | ((uintptr_t)items[end + 3] ^ same)
                    | ((uintptr_t)items[end + 4] ^ same) | ((uintptr_t)items[end + 5] ^ same)
                    | ((uintptr_t)items[end + 6] ^ same) | ((uintptr_t)items[end + 7] ^ same);
                if (differ) break;
                end += 8;
            }
            while (end < size && items[end] == scalar) end++;
            total += end - i;
            i = end - 1;
            continue;
        }
        Py_ssize_t ahead = i + PREFETCH_AHEAD;
        if (ahead < (is_list ? PyList_GET_SIZE(node) : PyTuple_GET_SIZE(node))) __builtin_prefetch(items[ahead]);
        if (exact_scalar(item)) {
            scalar = item;
            total += 1;
            continue;
        }
        long long size = enter(item, stack, error);
        scalar = size == 1 ? item : NULL;
        total += size;
    }
    return total;
}

static long long enter_all_iter(PyObject *iterator, Stack *stack, int *error)
{
    long long total = 0;
    PyObject *item;
    if (iterator == NULL) { *error = 1; return 0; }
    while (!*error && (item = PyIter_Next(iterator)) != NULL) {
        total += enter(item, stack, error);
        Py_DECREF(item);
    }
    if (PyErr_Occurred()) *error = 1;
    Py_DECREF(iterator);
    return total;
}

/* The walk of a plain instance's attribute_values (plain_in_c) without calling Python: the values of
   `object.__getattribute__(node, "__dict__")` when that is a dict (else none: dict.values raises TypeError,
   which attribute_values skips). The same C getter runs. Like attribute_values, the values are taken
   first and walked after (a small dict's into an array on the C stack, a large one's into a list). */
#define FEW_ATTRIBUTES 16
static long long enter_slots(PyObject *node, Stack *stack, int *error);

static long long enter_instance(PyObject *node, int has_slots, Stack *stack, int *error)
{
    long long slotted = has_slots ? enter_slots(node, stack, error) : 0;
    if (*error) return 0;
    /* asked after the slots, whose walk may have run Python code (then the class is asked again) */
    KindInfo *info = kind_info(Py_TYPE(node));
    if (info->has_dict == NOT_ASKED) info->has_dict = _PyType_Lookup(Py_TYPE(node), dict_key) != NULL;
    if (!info->has_dict) return slotted; /* no `__dict__`: slots only */
    PyObject *dict = PyObject_GenericGetAttr(node, dict_key);
    if (dict == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError) || PyErr_ExceptionMatches(PyExc_TypeError))
            PyErr_Clear();
        else
            *error = 1;
        return 0;
    }
    long long total = 0;
    if (!PyDict_Check(dict)) {
    } else if (PyDict_GET_SIZE(dict) <= FEW_ATTRIBUTES) {
        PyObject *few[FEW_ATTRIBUTES], *key, *value;
        Py_ssize_t pos = 0, n = 0;
        while (n < FEW_ATTRIBUTES && PyDict_Next(dict, &pos, &key, &value)) few[n++] = Py_NewRef(value);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!*error) total += exact_scalar(few[i]) ? 1 : enter(few[i], stack, error);
            Py_DECREF(few[i]);
        }
    } else {
        PyObject *values = PyDict_Values(dict);
        if (values == NULL) *error = 1;
        else {
            total = enter_items(values, 1, stack, error);
            Py_DECREF(values);
        }
    }
    Py_DECREF(dict);
    return total + slotted;
}

/* The values of a plain instance's set slots (attribute_values' second part): for each class of the MRO
   that has `__slots__` (named plainly: plain_in_c checked), each name but `__dict__` and `__weakref__`
   whose class attribute is a member descriptor, read by the descriptor's own C getter; an unset slot
   (AttributeError) has no value. */
static long long enter_slots(PyObject *node, Stack *stack, int *error)
{
    PyObject *mro = Py_TYPE(node)->tp_mro;
    long long total = 0;
    for (Py_ssize_t i = 0; !*error && i < PyTuple_GET_SIZE(mro); i++) {
        PyObject *dict = class_dict((PyTypeObject *)PyTuple_GET_ITEM(mro, i));
        if (dict == NULL) { *error = 1; return 0; }
        PyObject *slots = PyDict_GetItemWithError(dict, slots_key);
        if (slots == NULL) {
            if (PyErr_Occurred()) *error = 1;
            Py_DECREF(dict);
            continue;
        }
        Py_INCREF(slots);
        int one = PyUnicode_CheckExact(slots);
        Py_ssize_t n = one ? 1 : PySequence_Fast_GET_SIZE(slots);
        for (Py_ssize_t j = 0; !*error && j < n; j++) {
            PyObject *name = one ? slots : PySequence_Fast_GET_ITEM(slots, j);
            if (PyUnicode_CompareWithASCIIString(name, "__dict__") == 0
                || PyUnicode_CompareWithASCIIString(name, "__weakref__") == 0)
                continue;
            PyObject *descr = PyDict_GetItemWithError(dict, name);
            if (descr == NULL) {
                if (PyErr_Occurred()) *error = 1;
                continue;
            }
            if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) continue;
            PyObject *value = PyMember_GetOne((const char *)node, ((PyMemberDescrObject *)descr)->d_member);
            if (value == NULL) {
                if (PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
                else *error = 1;
                continue;
            }
            total += exact_scalar(value) ? 1 : enter(value, stack, error);
            Py_DECREF(value);
        }
        Py_DECREF(slots);
        Py_DECREF(dict);
    }
    return total;
}

static long long expand(PyObject *node, Stack *stack, int *error)
{
    long long total = 0;
    if (PyDict_Check(node)) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (!*error && PyDict_Next(node, &pos, &key, &value)) {
            total += exact_scalar(key) ? 1 : enter(key, stack, error);
            if (!*error) total += exact_scalar(value) ? 1 : enter(value, stack, error);
        }
    } else if (PyList_Check(node)) {
        total = enter_items(node, 1, stack, error);
    } else if (PyTuple_Check(node)) {
        total = enter_items(node, 0, stack, error);
    } else if (instances_in_c && plain_of(Py_TYPE(node))) {
        total = enter_instance(node, plain_of(Py_TYPE(node)) == 2, stack, error);
    } else if (PyAnySet_Check(node)) {
        total = enter_all_iter(PySet_Type.tp_iter(node), stack, error);
    } else if (PyObject_TypeCheck(node, (PyTypeObject *)deque_type)) {
        total = enter_all_iter(((PyTypeObject *)deque_type)->tp_iter(node), stack, error);
    } else {
        memo_forget();
        PyObject *values = PyObject_CallOneArg(attribute_values, node);
        if (values == NULL) { *error = 1; return 0; }
        total = enter_all_iter(PyObject_GetIter(values), stack, error);
        Py_DECREF(values);
    }
    return total;
}

static long long nodes_walked = 0; /* containers and instances expanded by every walk so far */

/* walk(values) -> sum of sizes; containers/instances are walked once per call. */
static PyObject *walk(PyObject *self, PyObject *values)
{
    if (deque_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_walker() first");
        return NULL;
    }
    generation++;
    seen_used = 0;
    memo_forget();
    Stack stack = {NULL, 0, 0};
    int error = 0;
    long long total = enter_all_iter(PyObject_GetIter(values), &stack, &error);
    while (!error && stack.size > 0) {
        PyObject *node = stack.items[--stack.size];
        nodes_walked++;
        total += expand(node, &stack, &error);
        Py_DECREF(node);
    }
    while (stack.size > 0) Py_DECREF(stack.items[--stack.size]);
    PyMem_Free(stack.items);
    if (error) return NULL;
    return PyLong_FromLongLong(total);
}

/* --- the roots of one observation (mirrors _probe.StateWalker.observe's gathering exactly) --------- */
static PyObject *roots_filename = NULL; /* owned frames' co_filename */
static PyObject *roots_hidden = NULL;   /* hidden name prefix (a non-empty str) or None */
static PyObject *roots_skipped = NULL;  /* tuple of types whose values are no root (SKIPPED_ROOTS) */
static PyObject *roots_name_test = NULL; /* callable(name) -> bool: skipped_name, for keys not exact str */
static PyObject *locals_key = NULL;     /* "f_locals" */

/* Append namespace to found unless ids (the namespaces deduplicated so far, by identity, as the
   Python `ids` set of id()s) holds it; then ids holds it. 0, or -1 with an exception set. */
static int append_once(PyObject *found, Stack *ids, PyObject *namespace)
{
    for (Py_ssize_t i = 0; i < ids->size; i++)
        if (ids->items[i] == namespace) return 0;
    if (push(ids, namespace) < 0) return -1;
    return PyList_Append(found, namespace);
}

/* The namespaces of owned frames from frame outwards (StateWalker.namespaces): an optimized frame's
   f_locals always, another frame's f_locals and every frame's f_globals once per dictionary. New list. */
static PyObject *namespaces(PyObject *frame)
{
    PyObject *found = PyList_New(0);
    Stack ids = {NULL, 0, 0};
    int ok = found != NULL;
    Py_INCREF(frame);
    while (ok && frame != NULL) {
        PyCodeObject *code = PyFrame_GetCode((PyFrameObject *)frame);
        int owned = PyUnicode_Compare(code->co_filename, roots_filename);
        int optimized = code->co_flags & CO_OPTIMIZED;
        Py_DECREF(code);
        if (owned == -1 && PyErr_Occurred()) ok = 0;
        else if (owned == 0) {
            PyObject *local = PyObject_GetAttr(frame, locals_key); /* frame.f_locals, as Python reads it */
            PyObject *globals = local == NULL ? NULL : PyFrame_GetGlobals((PyFrameObject *)frame);
            ok = globals != NULL && (optimized ? PyList_Append(found, local) : append_once(found, &ids, local)) == 0
                 && append_once(found, &ids, globals) == 0;
            Py_XDECREF(local);
            Py_XDECREF(globals);
        }
        PyObject *back = (PyObject *)PyFrame_GetBack((PyFrameObject *)frame);
        Py_DECREF(frame);
        frame = back;
    }
    Py_XDECREF(frame);
    while (ids.size > 0) Py_DECREF(ids.items[--ids.size]);
    PyMem_Free(ids.items);
    if (!ok) Py_CLEAR(found);
    return found;
}

/* StateWalker.skipped_name(name) for an exact str: a dunder name, or one starting with the hidden prefix. */
static int skipped_plain_name(PyObject *name)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    if (len >= 2 && PyUnicode_READ_CHAR(name, 0) == '_' && PyUnicode_READ_CHAR(name, 1) == '_'
        && PyUnicode_READ_CHAR(name, len - 1) == '_' && PyUnicode_READ_CHAR(name, len - 2) == '_')
        return 1;
    return roots_hidden != Py_None && PyUnicode_Tailmatch(name, roots_hidden, 0, PY_SSIZE_T_MAX, -1) == 1;
}

/* Append to values each value of namespace whose name is not skipped and which is not an instance of a
   skipped root type, over a snapshot of its items (`list(namespace.items())`). 0, or -1 with an exception. */
static int append_roots(PyObject *values, PyObject *namespace)
{
    PyObject *items = PyDict_CheckExact(namespace) ? PyDict_Items(namespace) : NULL;
    if (items == NULL && !PyDict_CheckExact(namespace)) { /* a frame-locals proxy (3.13+) or a mapping */
        PyObject *view = PyObject_CallMethod(namespace, "items", NULL);
        items = view == NULL ? NULL : PySequence_List(view);
        Py_XDECREF(view);
    }
    if (items == NULL) return -1;
    int error = 0;
    for (Py_ssize_t i = 0; !error && i < PyList_GET_SIZE(items); i++) {
        /* `for name, value in ...`: a pair of a mapping's own items() unpacks as Python unpacks it */
        PyObject *pair = PySequence_Tuple(PyList_GET_ITEM(items, i));
        if (pair == NULL) { error = 1; break; }
        if (PyTuple_GET_SIZE(pair) != 2) {
            if (PyTuple_GET_SIZE(pair) > 2) PyErr_SetString(PyExc_ValueError, "too many values to unpack (expected 2)");
            else PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected 2, got %zd)", PyTuple_GET_SIZE(pair));
            Py_DECREF(pair);
            error = 1;
            break;
        }
        PyObject *name = PyTuple_GET_ITEM(pair, 0), *value = PyTuple_GET_ITEM(pair, 1);
        int skipped;
        if (PyUnicode_CheckExact(name)) skipped = skipped_plain_name(name);
        else {
            PyObject *res = PyObject_CallOneArg(roots_name_test, name);
            skipped = res == NULL ? -1 : PyObject_IsTrue(res);
            Py_XDECREF(res);
        }
        /* isinstance(value, SKIPPED_ROOTS); an exact scalar is none of them and has no __class__ to ask */
        if (skipped == 0 && !exact_scalar(value)) skipped = PyObject_IsInstance(value, roots_skipped);
        if (skipped < 0 || (skipped == 0 && PyList_Append(values, value) < 0)) error = 1;
        Py_DECREF(pair);
    }
    Py_DECREF(items);
    return error ? -1 : 0;
}

/* roots(frame) -> the values StateWalker.observe walks at a line event of frame: every namespace's items
   first gathered (all f_locals read before any value is looked at), then filtered in order. */
static PyObject *roots(PyObject *self, PyObject *frame)
{
    if (roots_filename == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_roots() first");
        return NULL;
    }
    if (!PyFrame_Check(frame)) {
        PyErr_SetString(PyExc_TypeError, "roots(frame) needs a frame object");
        return NULL;
    }
    PyObject *found = namespaces(frame);
    if (found == NULL) return NULL;
    PyObject *values = PyList_New(0);
    for (Py_ssize_t i = 0; values != NULL && i < PyList_GET_SIZE(found); i++)
        if (append_roots(values, PyList_GET_ITEM(found, i)) < 0) Py_CLEAR(values);
    Py_DECREF(found);
    return values;
}

static PyObject *configure_roots(PyObject *self, PyObject *args)
{
    PyObject *filename, *hidden, *skipped, *name_test;
    if (!PyArg_ParseTuple(args, "UOO!O", &filename, &hidden, &PyTuple_Type, &skipped, &name_test)) return NULL;
    if (hidden != Py_None && !PyUnicode_Check(hidden)) {
        PyErr_SetString(PyExc_TypeError, "configure_roots: the hidden prefix must be a str or None");
        return NULL;
    }
    if (locals_key == NULL && (locals_key = PyUnicode_InternFromString("f_locals")) == NULL) return NULL;
    Py_XSETREF(roots_filename, Py_NewRef(filename));
    Py_XSETREF(roots_hidden, Py_NewRef(hidden));
    Py_XSETREF(roots_skipped, Py_NewRef(skipped));
    Py_XSETREF(roots_name_test, Py_NewRef(name_test));
    Py_RETURN_NONE;
}

static PyObject *configure_walker(PyObject *self, PyObject *args)
{
    PyObject *deque, *owned, *attrs;
    int in_c = 1;
    if (!PyArg_ParseTuple(args, "OOO|p", &deque, &owned, &attrs, &in_c)) return NULL;
    instances_in_c = in_c;
    Py_XSETREF(deque_type, Py_NewRef(deque));
    Py_XSETREF(owned_class, Py_NewRef(owned));
    Py_XSETREF(attribute_values, Py_NewRef(attrs));
    if (main_name == NULL) {
        main_name = PyUnicode_InternFromString("__main__");
        module_key = PyUnicode_InternFromString("__module__");
        slots_key = PyUnicode_InternFromString("__slots__");
        dict_key = PyUnicode_InternFromString("__dict__");
        if (main_name == NULL || module_key == NULL || slots_key == NULL || dict_key == NULL) return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *configure(PyObject *self, PyObject *args)
{
    PyObject *cls, *line, *dis, *over = Py_None;
    long long budget = -1;
    if (!PyArg_ParseTuple(args, "OOO|LO", &cls, &line, &dis, &budget, &over)) return NULL;
    Py_XSETREF(classify, Py_NewRef(cls));
    Py_XSETREF(line_callback, Py_NewRef(line));
    Py_XSETREF(disable, Py_NewRef(dis));
    Py_XSETREF(over_budget, Py_NewRef(over));
    trace_budget = budget;
    Py_RETURN_NONE;
}

static PyObject *count(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(counted);
}

static PyObject *walked(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(nodes_walked);
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(classify, line_callback, disable, trace_budget=-1, over_budget=None)"},
    {"count", count, METH_NOARGS, "Instruction events counted so far."},
    {"walked", walked, METH_NOARGS, "Containers and instances expanded by every walk so far."},
    {"walk", walk, METH_O, "walk(values) -> total state size of one observation."},
    {"roots", roots, METH_O, "roots(frame) -> the values StateWalker.observe walks at a line event of frame."},
    {"configure_roots", configure_roots, METH_VARARGS, "configure_roots(filename, hidden_prefix, skipped_types, "
     "skipped_name): what roots() reads (hidden_prefix None or a non-empty str; skipped_name(name) for other keys)"},
    {"configure_walker", configure_walker, METH_VARARGS, "configure_walker(deque, owned_class, attribute_values, instances_in_c=True): instances_in_c=False "
     "sends every instance through the two Python functions (the reference, for benchmarks and tests)"},
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
