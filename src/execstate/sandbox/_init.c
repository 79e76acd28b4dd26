/* PID 1 of one sandboxed run, in C: the same job as _init.py without an interpreter's start-up.
 *
 * Run by execstate.sandbox under `unshare --user --pid --net --mount --ipc --uts --fork` as
 *
 *     init STATUS_FD ROOT CWD AS_BYTES CPU_SECONDS FSIZE_BYTES FILTER N READABLE_1 ... READABLE_N -- ARGV...
 *
 * with the program's environment. It mounts a tmpfs at ROOT, bind-mounts the READABLE paths read-only
 * at their own paths (a symlink is recreated as a symlink; a READABLE of the form !PATH instead hides the
 * directory PATH, visible through an earlier bind, under an empty read-only tmpfs) and CWD writable, adds a
 * private /proc and /dev/{null,zero,random,urandom}, pivots into ROOT and detaches the old root; then forks the program
 * (chdir CWD, resource limits, execv ARGV), reaps every process until the program ends, writes
 * "exit N" or "signal N" to STATUS_FD and exits, which kills whatever is left in the PID namespace.
 * Setup failures are written as "error MESSAGE".
 *
 * FILTER is "-" or a seccomp program (classic BPF, hex) that the child installs before the program's
 * first instruction. The filter refuses execve and allows execveat only on descriptor EXEC_FD with
 * AT_EMPTY_PATH, so the child execs the program through that descriptor (opened O_PATH|O_CLOEXEC, so
 * the exec closes it) after lowering RLIMIT_NOFILE below EXEC_FD: the program can never make that
 * descriptor again, hence never exec anything.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_FD 1023
#define NOFILE 1000

extern char **environ;
static int status_fd = -1;

static void fail(const char *what, const char *path) {
    dprintf(status_fd, "error %s %s: %s\n", what, path ? path : "", strerror(errno));
    _exit(125);
}

static void make_dirs(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) fail("mkdir", buf);
            *p = '/';
        }
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) fail("mkdir", buf);
}

static void make_parent(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash && slash != buf) {
        *slash = '\0';
        make_dirs(buf);
    }
}

static void bind(const char *source, const char *target, int writable, int device) {
    struct stat st;
    if (stat(source, &st) != 0) return; /* nothing to show */
    /* Paths come sorted, so an existing target is already visible through a directory bound before it. */
    if (!writable && access(target, F_OK) == 0) return;
    if (S_ISDIR(st.st_mode)) {
        make_dirs(target);
    } else {
        make_parent(target);
        int fd = open(target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) fail("create", target);
        close(fd);
    }
    if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) fail("bind", source);
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_NOSUID | (device ? 0 : MS_NODEV) | (writable ? 0 : MS_RDONLY);
    if (mount(NULL, target, NULL, flags, NULL) != 0) fail("remount", target);
}

static void place(const char *root, const char *path, int writable) {
    char target[PATH_MAX], link[PATH_MAX];
    snprintf(target, sizeof target, "%s%s", root, path);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n >= 0) {
        link[n] = '\0';
        make_parent(target);
        if (symlink(link, target) != 0 && errno != EEXIST) fail("symlink", target);
        return;
    }
    bind(path, target, writable, 0);
}

static void hide(const char *root, const char *path) {
    char target[PATH_MAX];
    struct stat st;
    snprintf(target, sizeof target, "%s%s", root, path);
    if (stat(target, &st) != 0 || !S_ISDIR(st.st_mode)) return; /* not visible: nothing to hide */
    if (mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0755") != 0)
        fail("hide", path);
}

static void build_root(const char *root, const char *cwd, int nread, char **readable) {
    static const char *devices[] = {"null", "zero", "random", "urandom"};
    char path[PATH_MAX], old[PATH_MAX];
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("private", "/");
    if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=0755") != 0) fail("tmpfs", root);
    for (int i = 0; i < nread; i++) {
        if (readable[i][0] == '!') hide(root, readable[i] + 1);
        else place(root, readable[i], 0);
    }
    place(root, cwd, 1);
    snprintf(path, sizeof path, "%s/proc", root);
    make_dirs(path);
    if (mount("proc", path, "proc", MS_NOSUID | MS_NODEV, NULL) != 0) fail("proc", path);
    for (int i = 0; i < 4; i++) {
        char dev[64];
        snprintf(dev, sizeof dev, "/dev/%s", devices[i]);
        snprintf(path, sizeof path, "%s%s", root, dev);
        bind(dev, path, 1, 1);
    }
    snprintf(old, sizeof old, "%s/.old", root);
    make_dirs(old);
    if (syscall(SYS_pivot_root, root, old) != 0) fail("pivot_root", root);
    if (chdir("/") != 0) fail("chdir", "/");
    if (umount2("/.old", MNT_DETACH) != 0) fail("umount", "/.old");
    rmdir("/.old");
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) fail("remount", "/");
}

static void limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit rl = {soft, hard};
    if (setrlimit(resource, &rl) != 0) fail("setrlimit", NULL);
}

static int hex_value(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Install the hex seccomp program FILTER and exec PROGRAM through EXEC_FD; returns only on failure. */
static void confined_exec(const char *filter, char **program) {
    size_t n = strlen(filter) / 2;
    unsigned char *code = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(filter[2 * i]), lo = hex_value(filter[2 * i + 1]);
        if (!code || hi < 0 || lo < 0 || n % sizeof(struct sock_filter)) return;
        code[i] = (unsigned char)(hi * 16 + lo);
    }
    struct sock_fprog prog = {(unsigned short)(n / sizeof(struct sock_filter)), (struct sock_filter *)code};
    int fd = open(program[0], O_PATH | O_CLOEXEC);
    if (fd < 0 || dup3(fd, EXEC_FD, O_CLOEXEC) < 0) return;
    close(fd);
    limit(RLIMIT_NOFILE, NOFILE, NOFILE);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return;
    syscall(SYS_execveat, EXEC_FD, "", program, environ, AT_EMPTY_PATH);
}

int main(int argc, char **argv) {
    if (argc < 11) return 2;
    status_fd = atoi(argv[1]);
    const char *root = argv[2], *cwd = argv[3], *filter = argv[7];
    rlim_t as = strtoull(argv[4], NULL, 10), cpu = strtoull(argv[5], NULL, 10), fsize = strtoull(argv[6], NULL, 10);
    int nread = atoi(argv[8]);
    if (9 + nread + 1 >= argc || strcmp(argv[9 + nread], "--") != 0) return 2;
    char **program = argv + 10 + nread;
    build_root(root, cwd, nread, argv + 9);
    pid_t child = fork();
    if (child < 0) fail("fork", NULL);
    if (child == 0) {
        close(status_fd);
        if (chdir(cwd) != 0) fail("chdir", cwd);
        limit(RLIMIT_AS, as, as);
        limit(RLIMIT_CPU, cpu, cpu + 1);
        limit(RLIMIT_FSIZE, fsize, fsize);
        limit(RLIMIT_CORE, 0, 0);
        if (strcmp(filter, "-") != 0) confined_exec(filter, program);
        else execv(program[0], program);
        dprintf(2, "execstate sandbox: cannot start the program %s: %s\n", program[0], strerror(errno));
        _exit(127);
    }
    for (;;) {
        int status;
        pid_t pid = wait(&status);
        if (pid < 0 && errno == EINTR) continue;
        if (pid < 0) fail("wait", NULL);
        if (pid != child) continue; /* an orphan the program left: reaped, ignored */
        if (WIFSIGNALED(status)) dprintf(status_fd, "signal %d\n", WTERMSIG(status));
        else dprintf(status_fd, "exit %d\n", WEXITSTATUS(status));
        _exit(0);
    }
}
