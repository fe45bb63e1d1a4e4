"""Confinement for learner code on a class server: the child process of user_code.py shuts itself in before the
learner's first line runs, so one learner's tool cannot read another's runs, the server's key or its database.

Two kernel features, both for an unprivileged process (no root, no container), both kept across exec:
- Landlock (Linux 5.13+): from now on the process may only read Python's own installation and the system's
  libraries; nothing else on disk can be opened (not /proc, so not the server's environment; not the home folder,
  so not the databases or the cookie secret), and nothing can be written, made or removed anywhere.
- seccomp: no socket of any kind (no network, no database socket, no local server), no io_uring (which would
  bypass that), no new process (threads only), no ptrace or reading another process's memory, no signal to
  another process, no new namespaces.
x86_64 only for now (the syscall numbers are per architecture); elsewhere user_code.can_confine() is False
and a class server runs no learner code at all. The child fails closed: if any step fails, the code is not run.
"""

from __future__ import annotations

# Run inside the child (user_code._BOOT), before the learner's code; raises OSError if it cannot confine.
CHILD = r"""
def _confine():
    import ctypes, os, platform, struct, sys
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    def fail(step):
        raise OSError(ctypes.get_errno(), "cannot confine: " + step)
    if platform.machine() != "x86_64":
        fail("architecture")
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS: required by both, and no setuid binary gains rights
        fail("no_new_privs")
    abi = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))  # landlock_create_ruleset: the ABI version
    if abi < 1:
        fail("landlock")
    handled = (1 << 13) - 1 | (1 << 13 if abi >= 2 else 0) | (1 << 14 if abi >= 3 else 0) | (1 << 15 if abi >= 5 else 0)
    attr = ctypes.create_string_buffer(struct.pack("=Q", handled), 8)
    ruleset = libc.syscall(444, attr, ctypes.c_size_t(8), ctypes.c_uint32(0))
    if ruleset < 0:
        fail("landlock ruleset")
    # Python's own library folders (not the current folder, not an editable install's source) and the system's.
    homes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    paths = {os.path.join(h, lib) for h in homes for lib in ("lib", "lib64")}  # the standard library, site-packages
    paths |= {"/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/share/zoneinfo", "/etc/ld.so.cache"}
    for path in sorted(p for p in paths if os.path.exists(p)):
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        rights = (1 | 4 | 8) if os.path.isdir(path) else (1 | 4)  # EXECUTE | READ_FILE (| READ_DIR)
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        if libc.syscall(445, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0)) != 0:
            fail("landlock rule " + path)
        os.close(fd)
    if libc.syscall(446, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:  # landlock_restrict_self
        fail("landlock restrict")
    os.close(ruleset)
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, kill, eperm, enosys = 0x7FFF0000, 0x80000000, 0x00050001, 0x00050026
    def op(code, k, jt=0, jf=0):
        return struct.pack("=HBBI", code, jt, jf, k)
    prog = [op(ld, 4), op(jeq, 0xC000003E, 1, 0), op(ret, kill), op(ld, 0), op(jge, 0x40000000, 0, 1), op(ret, kill)]
    denied = (41, 53, 101, 310, 311, 425, 426, 427, 57, 58, 59, 322, 62, 200, 234, 129, 297, 424, 434, 438,
              272, 308, 323, 298, 321, 248, 249, 250, 165, 166, 155, 161)
    for nr in denied:
        prog += [op(jeq, nr, 0, 1), op(ret, eperm)]
    prog += [op(jeq, 435, 0, 1), op(ret, enosys)]  # clone3 carries its flags in memory: glibc then uses clone
    prog += [op(jeq, 56, 0, 3), op(ld, 16), op(jset, 0x10000, 1, 0), op(ret, eperm), op(ret, allow)]  # CLONE_THREAD
    code = b"".join(prog)
    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    buffer = ctypes.create_string_buffer(code, len(code))
    fprog = Prog(len(prog), ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        fail("seccomp")
"""
