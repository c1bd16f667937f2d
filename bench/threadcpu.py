#!/usr/bin/env python3
"""Runs a command and prints, on stderr's last line, what it cost:
   threadcpu: wall_s cpu_s loop_cpu_s maxrss_kb exit
cpu_s is user+sys of the whole process (every thread), loop_cpu_s that of its
main thread alone (tern's loop), read from /proc while the process is a
zombie (waited for with WNOWAIT, so its threads' figures are final and still
there), then it is reaped."""
import os
import sys
import time

def ticks(path):
    with open(path) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    # utime and stime are fields 14 and 15 of stat(5); here 12 and 13.
    return int(fields[11]) + int(fields[12])

def main():
    hz = os.sysconf('SC_CLK_TCK')
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(sys.argv[1], sys.argv[1:])
        finally:
            os._exit(127)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    wall = time.monotonic() - t0
    whole = ticks('/proc/%d/stat' % pid) / hz
    loop = ticks('/proc/%d/task/%d/stat' % (pid, pid)) / hz
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    print('threadcpu: %.3f %.2f %.2f %d %d' % (wall, whole, loop, ru.ru_maxrss, code),
          file=sys.stderr)
    sys.exit(0 if code == 0 else 1)

main()
