"""Replies that try to escape the audit's sandbox: read a file outside, write one, open a
socket, spawn a process, fork-bomb, allocate 10 GB, loop forever. Every attempt fails, is
reported with what stopped it, and the next reply of the batch still runs; each wall is also
shown to hold alone (the namespaces and mounts without the guard, the seccomp filter without
the audit hook)."""

from __future__ import annotations

import atexit
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from audit.engines import Session
from audit.pipeline import describe_stop
from audit.sandbox import Limits, Sandbox, python_binds, rlimit_setter, sandbox_missing
from audit.sessions import ForkServerSession, OneShotSession, RunOutcome

HERE = Path(__file__).resolve()


def _host_file() -> Path:
    """A file of the host that exists outside /tmp (which the sandbox replaces with its own, so
    a host file there would be missing inside rather than refused): this test, or, when the
    checkout itself sits under /tmp, a file made in /var/tmp for the session."""
    if not HERE.is_relative_to("/tmp"):
        return HERE
    folder = Path(tempfile.mkdtemp(prefix="spatialbabel-escapes-", dir="/var/tmp"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    secret = folder / "host_secret.txt"
    secret.write_text("host\n")
    return secret


#: A file of the host and a path beside it no reply may create.
OUTSIDE = str(_host_file())
ESCAPED = Path(OUTSIDE).with_name("escaped_by_a_reply.txt")
LIMITS = Limits(seconds=4.0, memory_mb=3072)

pytestmark = pytest.mark.skipif(sandbox_missing() is not None, reason=str(sandbox_missing()))


@pytest.fixture(scope="module")
def listener() -> Iterator[tuple[int, list[str]]]:
    """A TCP server on the host's loopback; records every connection it gets."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    accepted: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, peer = server.accept()
            except TimeoutError:
                continue
            accepted.append(str(peer))
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join()
    server.close()


def python_escapes(port: int) -> dict[str, str]:
    return {
        "read": f"print(open({OUTSIDE!r}).read())",
        "write": f"open({str(ESCAPED)!r}, 'w').write('out')",
        "socket": f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)",
        "spawn": f"import subprocess\nsubprocess.run(['touch', {str(ESCAPED)!r}])",
        "fork_bomb": "import os\nwhile True:\n    os.fork()",
        "fork_by_ctypes": "import ctypes\nctypes.CDLL(None).fork()",
        "allocate": "x = bytearray(10 * 1024 ** 3)",
        "loop": "while True:\n    pass",
        "kill_worker": "import os\nos.kill(os.getppid(), 9)",
    }


#: What stops each attempt, as the report says it.
PYTHON_STOPS = {
    "read": "read a file outside the sandbox: refused by the python guard",
    "write": "write a file outside /tmp: refused by the python guard",
    "socket": "resolve a host name: refused by the python guard",
    "spawn": "spawn a process: refused by the python guard",
    "fork_bomb": "fork a process: refused by the python guard",
    "fork_by_ctypes": "load a C library through ctypes: refused by the python guard",
    "allocate": "memory limit: an allocation past 3072 MiB failed",
    "loop": "time limit: killed after 4 s of wall-clock time",
    "kill_worker": "signal a process: refused by the python guard",
}


def _escape_batch(
    session: Session, escapes: dict[str, str], build: str
) -> dict[str, tuple[RunOutcome, RunOutcome]]:
    """Each escape, then a plain reply: the batch must go on after every attempt."""
    found = {}
    for name, code in escapes.items():
        attempt = session.run(name, code)
        after = session.run(f"{name}-after", build)
        found[name] = (attempt, after)
    return found


def _error(outcome: RunOutcome) -> str | None:
    result = outcome.result or {}
    if "errors" in result:
        return "; ".join(result["errors"]) or None
    return result.get("error")


def _check_escapes(
    found: dict[str, tuple[RunOutcome, RunOutcome]],
    stops: dict[str, str],
    listener: tuple[int, list[str]],
    built: str,
) -> None:
    for name, (attempt, after) in found.items():
        stopped = describe_stop(attempt, LIMITS, _error(attempt))
        assert stopped is not None and stops[name] in stopped, (name, stopped, attempt)
        assert after.status == "ran" and after.result is not None, (name, after)
        assert built in str(after.result), (name, after.result)
    assert not ESCAPED.exists()
    assert listener[1] == []


@pytest.mark.bpy
def test_blender_escapes_fail_are_reported_and_the_batch_goes_on(
    listener: tuple[int, list[str]],
) -> None:
    pytest.importorskip("bpy")
    session = ForkServerSession(Sandbox(LIMITS), "audit.bpy_runner")
    build = "import bpy\nbpy.ops.mesh.primitive_cube_add(size=2)"
    try:
        found = _escape_batch(session, python_escapes(listener[0]), build)
    finally:
        session.close()
    assert session.restarts == 0
    _check_escapes(found, PYTHON_STOPS, listener, "primitive_cube_add")
    # The refused attempt is in the report even where the reply's code would catch it.
    read = found["read"][0]
    assert read.blocked == [
        {
            "what": "read a file outside the sandbox",
            "detail": OUTSIDE,
            "stopped_by": "python guard (audit hook)",
        }
    ]
    assert found["loop"][0].status == "timeout"


@pytest.mark.open3d
def test_open3d_escapes_fail_and_a_caught_attempt_is_still_reported(
    listener: tuple[int, list[str]],
) -> None:
    pytest.importorskip("open3d")
    session = ForkServerSession(Sandbox(LIMITS), "audit.open3d_runner")
    build = "import open3d as o3d\nm = o3d.geometry.TriangleMesh.create_box()"
    escapes = python_escapes(listener[0])
    escapes["caught_spawn"] = "import os\ntry:\n    os.system('id')\nexcept Exception:\n    pass"
    stops = {**PYTHON_STOPS, "caught_spawn": "run a shell command: refused by the python guard"}
    try:
        found = _escape_batch(session, escapes, build)
    finally:
        session.close()
    _check_escapes(found, stops, listener, "create_box")
    caught = found["caught_spawn"][0]
    assert caught.result is not None and caught.result["error"] is None
    assert caught.blocked_count == 1


NODE_HEAD = "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"


@pytest.mark.node
def test_three_escapes_fail_are_reported_and_the_batch_goes_on(
    listener: tuple[int, list[str]],
) -> None:
    from audit.three_audit import ENGINE

    if ENGINE.missing() is not None:
        pytest.skip(str(ENGINE.missing()))
    session = ENGINE.open(Sandbox(LIMITS))
    port = listener[0]
    escapes = {
        "read": f"const fs = await import('node:fs');\nfs.readFileSync({OUTSIDE!r});",
        "write": f"const fs = await import('node:fs');\nfs.writeFileSync({str(ESCAPED)!r}, 'x');",
        "socket": f"const net = await import('node:net');\nnet.connect({port}, '127.0.0.1');",
        "spawn": f"const cp = await import('node:child_process');\ncp.execSync('touch {ESCAPED}');",
        "fork_bomb": "const cp = await import('node:child_process');\nwhile (true) cp.fork('x');",
        "internals": "process.binding('spawn_sync');",
        "allocate": "const big = new ArrayBuffer(10 * 1024 ** 3);",
        "loop": "while (true) {}",
        "kill": "process.kill(process.ppid, 'SIGKILL');",
    }
    stops = {
        "read": "read a file outside the sandbox: refused by the node guard",
        "write": "write a file outside /tmp: refused by the node guard",
        "socket": "open a socket: refused by the node guard",
        "spawn": "spawn a process: refused by the node guard",
        "fork_bomb": "spawn a process: refused by the node guard",
        "internals": "reach node's internals: refused by the node guard",
        "allocate": "memory limit: an allocation past 3072 MiB failed",
        "loop": "time limit: killed after 4 s of wall-clock time",
        "kill": "signal a process: refused by the node guard",
    }
    build = NODE_HEAD + "scene.add(new THREE.Mesh(new THREE.BoxGeometry(1, 2, 3)));"
    found = _escape_batch(session, {k: NODE_HEAD + v for k, v in escapes.items()}, build)
    _check_escapes(found, stops, listener, "BoxGeometry")


# --- each wall alone ----------------------------------------------------------------------------


def _bare(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by Python in the sandbox without the guard: namespaces, mounts, rlimits."""
    sandbox = Sandbox(LIMITS)
    command = sandbox.command([sys.executable, "-c", code], binds=python_binds())
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=rlimit_setter(LIMITS.reply_limits(), cpu=True),
    )


def test_the_mounts_alone_hide_the_host_and_refuse_writes() -> None:
    done = _bare(
        "import errno\n"
        f"for path in ({OUTSIDE!r}, '/etc/passwd', '/root/.bashrc'):\n"
        "    try:\n        open(path)\n    except OSError as e:\n        print('read', errno.errorcode[e.errno])\n"
        f"for path in ({str(ESCAPED)!r}, '/usr/x', '/x', '/dev/shm/x'):\n"
        "    try:\n        open(path, 'w')\n    except OSError as e:\n        print('write', errno.errorcode[e.errno])\n"
        "open('/tmp/ok', 'w').write('fine'); print('tmp', open('/tmp/ok').read())"
    )
    assert done.stdout.split("\n")[:8] == [
        "read ENOENT",
        "read ENOENT",
        "read ENOENT",
        "write ENOENT",
        "write EROFS",
        "write EROFS",
        "write EROFS",
        "tmp fine",
    ], done.stderr
    assert not ESCAPED.exists()


def test_the_network_namespace_alone_reaches_nothing(listener: tuple[int, list[str]]) -> None:
    done = _bare(
        "import socket\n"
        f"try:\n    socket.create_connection(('127.0.0.1', {listener[0]}), timeout=2)\n"
        "except OSError as e:\n    print(type(e).__name__)\n"
        "try:\n    socket.create_connection(('192.0.2.1', 80), timeout=2)\n"
        "except OSError as e:\n    print(type(e).__name__, e.errno)"
    )
    # The loopback inside is the sandbox's own: nobody listens there; there is no route out.
    assert done.stdout.split("\n")[:2] == ["ConnectionRefusedError", "OSError 101"], done.stderr
    time.sleep(0.3)
    assert listener[1] == []


def test_the_seccomp_filter_alone_refuses_new_processes() -> None:
    pytest.importorskip("pyseccomp")
    code = (
        "import os, subprocess, threading\n"
        "from audit.guard import syscall_filter\n"
        "syscall_filter(os.getpid()).load()\n"
        "t = threading.Thread(target=lambda: print('thread ok')); t.start(); t.join()\n"
        "import socket\n"
        "attempts = (os.fork, lambda: subprocess.run(['true']), lambda: os.kill(1, 0),\n"
        "            lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))\n"
        "for attempt in attempts:\n"
        "    try:\n        attempt(); print('escaped')\n"
        "    except OSError as e:\n        print(e.strerror)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.split("\n")[:5] == [
        "thread ok",
        "Operation not permitted",
        "Operation not permitted",
        "Operation not permitted",
        "Operation not permitted",
    ], done.stderr


def test_the_memory_limit_alone_stops_a_10_gb_allocation() -> None:
    # Without the address-space limit this succeeds: the kernel lends untouched zero pages.
    done = _bare("x = bytearray(10 * 1024 ** 3)")
    assert done.returncode != 0 and "MemoryError" in done.stderr


# --- a crash, a hang and a dead worker cost only their own reply -------------------------------


@pytest.mark.open3d
def test_a_crash_and_a_dead_worker_lose_only_their_reply() -> None:
    pytest.importorskip("open3d")
    session = ForkServerSession(Sandbox(LIMITS), "audit.open3d_runner")
    build = "import open3d as o3d\nm = o3d.geometry.TriangleMesh.create_sphere()"
    try:
        crash = session.run("crash", "import faulthandler\nfaulthandler._sigsegv()")
        after_crash = session.run("after-crash", build)
        # The worker itself dies while a reply runs: that reply is lost, the next starts a new
        # worker.
        killer = threading.Timer(1.5, session.kill_worker)
        killer.start()
        lost = session.run("lost", "while True:\n    pass")
        killer.join()
        after_loss = session.run("after-loss", build)
    finally:
        session.close()
    assert (crash.status, crash.signal) == ("killed", "SIGSEGV")
    assert "ended (SIGSEGV) without a result" in str(describe_stop(crash, LIMITS, None))
    assert after_crash.status == "ran" and "create_sphere" in str(after_crash.result)
    assert lost.status == "lost" and lost.seconds < LIMITS.seconds
    assert after_loss.status == "ran" and "create_sphere" in str(after_loss.result)
    assert session.restarts == 1


@pytest.mark.open3d
def test_a_reply_starts_from_a_fresh_engine_and_an_empty_tmp() -> None:
    pytest.importorskip("open3d")
    session = ForkServerSession(Sandbox(LIMITS), "audit.open3d_runner")
    try:
        first = session.run(
            "first",
            "import open3d as o3d\nopen('/tmp/left.txt', 'w').write('x')\n"
            "o3d.LEFT_BEHIND = 1\nm = o3d.geometry.TriangleMesh.create_box()",
        )
        second = session.run(
            "second",
            "import os, open3d as o3d\n"
            "assert not hasattr(o3d, 'LEFT_BEHIND'), 'state leaked'\n"
            "assert 'left.txt' not in os.listdir('/tmp'), 'a file leaked'\n"
            "m = o3d.geometry.TriangleMesh.create_cone()",
        )
    finally:
        session.close()
    assert first.result is not None and second.result is not None
    assert second.result["error"] is None, second.result["error"]
    assert [c["op"] for c in second.result["created"]] == ["create_cone"]


@pytest.mark.node
def test_nodes_permission_model_alone_refuses_processes_and_files() -> None:
    """The harness run without the node guard: node's permission model is the wall."""
    from audit.three_audit import ENGINE

    if ENGINE.missing() is not None:
        pytest.skip(str(ENGINE.missing()))
    session = ENGINE.open(Sandbox(LIMITS))
    at = session.argv.index("--import")
    del session.argv[at : at + 2]
    outcome = session.run(
        "bare",
        NODE_HEAD
        + "const cp = await import('node:child_process');\n"
        + "try { cp.execSync('id'); } catch (e) { console.log(e.code); }\n"
        + "const fs = await import('node:fs');\n"
        + f"try {{ fs.readFileSync({OUTSIDE!r}); }} catch (e) {{ console.log(e.code); }}\n"
        + "try { fs.writeFileSync('/usr/x', 'y'); } catch (e) { console.log(e.code); }\n",
    )
    assert outcome.status == "ran" and outcome.blocked == []
    assert outcome.log.split() == ["ERR_ACCESS_DENIED"] * 3, outcome.log


# --- C# (Unity: Mono and the UnityEngine facade) --------------------------------------------------


def _unity_reply(body: str, members: str = "") -> str:
    return (
        "using System.Collections.Generic;\nusing UnityEngine;\n"
        f"public class Escape : MonoBehaviour {{\n{members}\nvoid Start() {{\n{body}\n}}\n}}\n"
    )


def unity_escapes(port: int) -> dict[str, str]:
    fork = '[System.Runtime.InteropServices.DllImport("libc")] static extern int fork();'
    return {
        "read": _unity_reply(f'Debug.Log(System.IO.File.ReadAllText("{OUTSIDE}"));'),
        "write": _unity_reply(f'System.IO.File.WriteAllText("{ESCAPED}", "out");'),
        "socket": _unity_reply(f'new System.Net.Sockets.TcpClient("127.0.0.1", {port});'),
        "spawn": _unity_reply(f'System.Diagnostics.Process.Start("touch", "{ESCAPED}");'),
        "fork_bomb": _unity_reply('while (true) System.Diagnostics.Process.Start("sh", "-c :");'),
        "fork_by_pinvoke": _unity_reply("while (true) fork();", fork),
        "reflection": _unity_reply(
            'var read = System.Type.GetType("System.IO.File").GetMethod("ReadAllText", '
            "new[] { typeof(string) });\n"
            f'Debug.Log(read.Invoke(null, new object[] {{ "{OUTSIDE}" }}));'
        ),
        "allocate": _unity_reply(
            "var kept = new List<byte[]>();\n"
            # Address space is what the limit caps, so reserving is enough: touching every page
            # of 3 GB took past the time limit on a loaded machine.
            "for (int i = 0; i < 10; i++) kept.Add(new byte[1 << 30]);"
        ),
        "loop": _unity_reply("while (true) { }"),
        "exit": _unity_reply("System.Environment.Exit(0);"),
    }


#: What stops each C# attempt: the driver's check of what the compiled reply references, before
#: any of it runs (the sandbox's walls stand behind it: see the test of the walls alone).
UNITY_STOPS = {
    "read": "read or write a file (System.IO): refused by the C# reference check",
    "write": "read or write a file (System.IO): refused by the C# reference check",
    "socket": "open a network connection (System.Net): refused by the C# reference check",
    "spawn": "start or reach a process (System.Diagnostics): refused by the C# reference check",
    "fork_bomb": "start or reach a process (System.Diagnostics): refused by the C# reference check",
    "fork_by_pinvoke": "call native code (P/Invoke, DllImport): refused by the C# reference check",
    "reflection": "reflect on a type (Type): refused by the C# reference check",
    "allocate": "memory limit: an allocation past 3072 MiB failed",
    "loop": "time limit: killed after 4 s of wall-clock time",
    "exit": "reach the process's environment (Environment): refused by the C# reference check",
}


@pytest.mark.mono
def test_unity_escapes_fail_are_reported_and_the_batch_goes_on(
    listener: tuple[int, list[str]],
) -> None:
    from audit.unity_audit import ENGINE

    if ENGINE.missing() is not None:
        pytest.skip(str(ENGINE.missing()))
    session = ENGINE.open(Sandbox(LIMITS))
    build = _unity_reply("GameObject.CreatePrimitive(PrimitiveType.Cube);")
    escapes = unity_escapes(listener[0])
    # One batch compiles them all, a reply mcs rejects among them: it fails alone.
    broken = "public class Broken : MonoBehaviour { void Start() { int x = ; } }"
    jobs = [(name, code) for name, code in escapes.items()]
    jobs += [(f"{name}-after", build) for name in escapes] + [("broken", broken)]
    try:
        session.prepare(jobs)
        found = _escape_batch(session, escapes, build)
        not_compiled = session.run("broken", broken)
    finally:
        session.close()
    _check_escapes(found, UNITY_STOPS, listener, "Cube")
    refused = [name for name, (attempt, _) in found.items() if attempt.status == "refused"]
    assert sorted(refused) == sorted(set(escapes) - {"allocate", "loop"})
    assert found["loop"][0].status == "timeout"
    assert not_compiled.result is not None and "CS1525" in not_compiled.result["compile_error"]


def test_the_sandbox_alone_holds_mono(listener: tuple[int, list[str]], tmp_path: Path) -> None:
    """A C# program run by mono in the sandbox without the driver or its check: the mounts, the
    network namespace, the seccomp filter and the memory limit refuse each attempt."""
    from audit.sandbox import ENGINE_FILES, Bind, exported_filter
    from audit.unity_audit import _mono_binds
    from audit.unity_engine import mono_available

    if not mono_available():
        pytest.skip("Mono (mcs, mono) is not installed")
    program = tmp_path / "Walls.cs"
    program.write_text(
        "using System;\nusing System.Runtime.InteropServices;\n"
        "static class Walls {\n"
        '  [DllImport("libc", SetLastError = true)] static extern int fork();\n'
        "  static void Try(string what, Action attempt) {\n"
        '    try { attempt(); Console.Error.WriteLine(what + " escaped"); }\n'
        '    catch (Exception e) { Console.Error.WriteLine(what + " " + e.GetType().Name); }\n'
        "  }\n"
        "  static void Main() {\n"
        f'    Try("read", () => System.IO.File.ReadAllText("{OUTSIDE}"));\n'
        f'    Try("write", () => System.IO.File.WriteAllText("{ESCAPED}", "x"));\n'
        '    Try("write-usr", () => System.IO.File.WriteAllText("/usr/x", "x"));\n'
        '    Try("spawn", () => System.Diagnostics.Process.Start("true").WaitForExit());\n'
        '    Console.Error.WriteLine("fork " + (fork() == -1 ? "refused " + Marshal.GetLastWin32Error() : "escaped"));\n'
        '    Try("socket", () => new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork,'
        " System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp)"
        f'.Connect("127.0.0.1", {listener[0]}));\n'
        '    Try("allocate", () => { var kept = new System.Collections.Generic.List<byte[]>();\n'
        "      for (int i = 0; i < 10; i++) kept.Add(new byte[1 << 30]); });\n"
        "  }\n}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        ["mcs", "-nologo", f"-out:{tmp_path / 'Walls.exe'}", str(program)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    session = OneShotSession(
        Sandbox(LIMITS),
        ["mono", f"{ENGINE_FILES}/Walls.exe"],
        name="mono",
        binds=[*_mono_binds(), Bind(tmp_path, ENGINE_FILES)],
        seccomp=exported_filter,
    )
    outcome = session.run("walls", "")
    # The program prints no JSON (its lines go to the log): the run ends without a result.
    assert outcome.exit_code == 0, outcome
    lines = outcome.log.split("\n")
    assert lines[:7] == [
        "read DirectoryNotFoundException",  # not mounted
        "write DirectoryNotFoundException",  # not mounted either
        "write-usr UnauthorizedAccessException",  # a read-only bind (EROFS)
        "spawn Win32Exception",  # seccomp: no fork, no clone of a process
        "fork refused 1",  # EPERM
        "socket SocketException",  # seccomp: no inet socket (EPERM, "Access denied")
        "allocate OutOfMemoryException",  # RLIMIT_AS
    ], outcome.log
    assert not ESCAPED.exists()
    assert listener[1] == []
