"""A seccomp filter that refuses to make Unix sockets: a sandboxed program reaches no socket on the host's disk.

A read-only mount does not stop `connect()` to a Unix socket file (a local PostgreSQL's or Redis's), and
such files may sit in any directory the program can see. So the sandbox's processes may not call
`socket(AF_UNIX, …)` at all (it fails with EACCES); `socketpair()` (pipes between its own processes) still
works, and abstract sockets are already walled off by the network namespace. A process of another
architecture than Arena's (a 32-bit binary on a 64-bit host) would bypass the check, so it gets ENOSYS for
every system call, as do x86-64's x32 calls. Installed in the child before it runs anything
(`no_new_privs` first, as seccomp asks).
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

#: Per machine: the kernel's audit architecture and the number of the socket(2) system call.
ARCHITECTURES = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}
AF_UNIX = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
LOAD_WORD, JUMP_IF_EQUAL, JUMP_IF_AT_LEAST, RETURN = 0x20, 0x15, 0x35, 0x06
#: x86-64 numbers its x32 ABI's calls from here; the filter refuses them (ENOSYS) like another architecture's.
X32_CALLS = 0x40000000
#: Offsets in struct seccomp_data: the call's number, the architecture, the first argument's low word.
NUMBER, ARCH, FIRST_ARGUMENT = 0, 4, 16


def available() -> bool:
    """Whether this machine's architecture has a filter here."""
    return platform.machine() in ARCHITECTURES


def _program() -> bytes:
    arch, socket_call = ARCHITECTURES[platform.machine()]
    instructions = [
        (LOAD_WORD, 0, 0, ARCH),
        (JUMP_IF_EQUAL, 0, 7, arch),  # another architecture: to the last line
        (LOAD_WORD, 0, 0, NUMBER),
        (JUMP_IF_AT_LEAST, 5, 0, X32_CALLS),  # x86-64's x32 calls: to the last line
        (JUMP_IF_EQUAL, 0, 3, socket_call),
        (LOAD_WORD, 0, 0, FIRST_ARGUMENT),
        (JUMP_IF_EQUAL, 0, 1, AF_UNIX),
        (RETURN, 0, 0, SECCOMP_RET_ERRNO | errno.EACCES),
        (RETURN, 0, 0, SECCOMP_RET_ALLOW),
        (RETURN, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS),
    ]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in instructions)


def refuse_unix_sockets() -> None:
    """Install the filter in this process (and everything it starts); OSError if the kernel refuses."""
    libc = ctypes.CDLL(None, use_errno=True)
    code = ctypes.create_string_buffer(_program())

    class Program(ctypes.Structure):
        _fields_ = [("length", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    program = Program(len(code.raw) // 8, ctypes.addressof(code))
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    calls = ((PR_SET_NO_NEW_PRIVS, 1), (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(program)))
    for option, *arguments in calls:
        arguments += [0] * (4 - len(arguments))
        if libc.prctl(option, *arguments) != 0:
            raise OSError(ctypes.get_errno(), "prctl refused the seccomp filter")
