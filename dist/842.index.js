export const id = 842;
export const ids = [842];
export const modules = {

/***/ 3842:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  LogFollower: () => (/* reexport */ LogFollower),
  attachServer: () => (/* reexport */ attachServer),
  envReport: () => (/* reexport */ envReport),
  gpuSnapshot: () => (/* reexport */ gpuSnapshot),
  isDockerProxy: () => (/* reexport */ isDockerProxy),
  listenerOwnership: () => (/* reexport */ listenerOwnership),
  localPort: () => (/* reexport */ localPort),
  memoryHeldBy: () => (/* reexport */ memoryHeldBy),
  newLogFile: () => (/* reexport */ newLogFile),
  preflight: () => (/* reexport */ preflight),
  preflightVerdict: () => (/* reexport */ preflightVerdict),
  processTree: () => (/* reexport */ processTree),
  resolvePid: () => (/* reexport */ resolvePid),
  serverEnv: () => (/* reexport */ serverEnv),
  startServer: () => (/* reexport */ startServer)
});

// EXTERNAL MODULE: ./src/inputs/secrets.ts
var inputs_secrets = __webpack_require__(3332);
;// CONCATENATED MODULE: ./src/server/env-report.ts
/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */

/**
 * Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted.
 * A value is masked when its name says it is a credential, or when it holds one of `secrets` (the api-key in a
 * variable called MODEL_AUTH is still the api-key): the report also goes into the history file.
 */
function envReport(patterns, environ, secrets = []) {
    const entries = [];
    const seen = new Set();
    for (const pattern of patterns) {
        const glob = new RegExp(`^${pattern.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
        const names = Object.keys(environ)
            .filter((n) => glob.test(n))
            .sort();
        if (names.length === 0)
            entries.push({ name: pattern });
        for (const name of names.filter((n) => !seen.has(n))) {
            seen.add(name);
            const value = environ[name];
            const secret = (0,inputs_secrets/* isCredentialName */.hN)(name) || secrets.some((s) => value.includes(s));
            entries.push({ name, value: secret ? inputs_secrets/* MASK */.v5 : value });
        }
    }
    return entries;
}

;// CONCATENATED MODULE: ./src/gpu/nvidia-smi.ts
/**
 * The GPUs and what holds their memory, from `nvidia-smi`: its CSV queries (formats as seen on an H200; see the
 * research notes), run with a time limit. Where nvidia-smi is missing, fails or hangs the answer is a structured
 * `unavailable`, never an error: a machine without a GPU is no reason to fail a wait.
 */
const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.used,memory.total', '--format=csv,noheader,nounits'];
const APPS_QUERY = ['--query-compute-apps=pid,process_name,used_memory,gpu_uuid', '--format=csv,noheader,nounits'];
/** The GPUs and the compute processes on them, in two calls of nvidia-smi. */
async function gpuSnapshot(options = {}) {
    const gpuRun = await runNvidiaSmi(GPU_QUERY, options);
    if (gpuRun.kind !== 'ok')
        return gpuRun;
    const appsRun = await runNvidiaSmi(APPS_QUERY, options);
    if (appsRun.kind !== 'ok')
        return appsRun;
    const gpus = parseGpus(gpuRun.stdout);
    const apps = parseApps(appsRun.stdout);
    if (gpus === undefined || apps === undefined)
        return {
            kind: 'unavailable',
            why: 'unreadable',
            detail: firstLine(gpus === undefined ? gpuRun.stdout : appsRun.stdout)
        };
    return { kind: 'available', gpus, apps };
}
function runNvidiaSmi(args, { env = process.env, timeoutMs = 10_000, command = 'nvidia-smi' }) {
    return new Promise((resolve) => {
        // node:child_process is loaded only when nvidia-smi is asked: a wait without a GPU check starts without it.
        const { spawn } = process.getBuiltinModule('node:child_process');
        const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve({ kind: 'unavailable', why: 'timeout' });
        }, timeoutMs);
        child.once('error', (e) => {
            clearTimeout(timer);
            resolve(e.code === 'ENOENT'
                ? { kind: 'unavailable', why: 'not-found' }
                : { kind: 'unavailable', why: 'failed', detail: e.message });
        });
        child.once('close', (code) => {
            clearTimeout(timer);
            // nvidia-smi prints its own failure ("NVIDIA-SMI has failed because it couldn't communicate \u2026") on stdout
            if (code === 0)
                resolve({ kind: 'ok', stdout });
            else
                resolve({ kind: 'unavailable', why: 'failed', detail: firstLine(stdout.trim() === '' ? stderr : stdout) });
        });
    });
}
const firstLine = (text) => text.trim().split('\n', 1)[0].slice(0, 300);
/** `[N/A]` and the like are no number. */
const mib = (text) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);
/** The lines of a `noheader` CSV answer, split into fields; undefined unless each has `fields` and starts with a number. */
function csvRows(csv, fields) {
    const rows = csv
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(',').map((x) => x.trim()));
    return rows.every((f) => f.length >= fields && /^\d+$/.test(f[0])) ? rows : undefined;
}
/** `0, GPU-24f1\u2026, NVIDIA H200, 21099, 143771` per line; the name (which may hold a comma) is what lies between. */
function parseGpus(csv) {
    return csvRows(csv, 5)?.map((f) => ({
        index: Number(f[0]),
        uuid: f[1],
        name: f.slice(2, -2).join(','),
        memoryUsedMiB: mib(f[f.length - 2]),
        memoryTotalMiB: mib(f[f.length - 1])
    }));
}
/** `430, python3, 21090, GPU-24f1\u2026` per line (nothing at all when no process computes). */
function parseApps(csv) {
    return csvRows(csv, 4)?.map((f) => ({
        pid: Number(f[0]),
        processName: f.slice(1, -2).join(','),
        usedMiB: mib(f[f.length - 2]),
        gpuUuid: f[f.length - 1]
    }));
}
/**
 * The GPUs `CUDA_VISIBLE_DEVICES` names (indices, UUIDs or UUID prefixes such as `GPU-24f17f1b`), in its order;
 * all of them when it is unset. Like CUDA, the list ends at the first entry that names no GPU (`-1`, a MIG id
 * nvidia-smi does not list here), and an empty value hides every GPU. `unmatched` is that entry, if any.
 */
function visibleGpus(gpus, cudaVisibleDevices) {
    if (cudaVisibleDevices === undefined)
        return { gpus: [...gpus] };
    const chosen = [];
    for (const entry of cudaVisibleDevices.split(',').map((e) => e.trim())) {
        if (entry === '')
            break;
        const gpu = /^\d+$/.test(entry)
            ? gpus.find((g) => g.index === Number(entry))
            : gpus.find((g) => g.uuid.toLowerCase().startsWith(entry.toLowerCase()) && /^gpu-/i.test(entry));
        if (gpu === undefined)
            return { gpus: chosen, unmatched: entry };
        if (!chosen.includes(gpu))
            chosen.push(gpu);
    }
    return { gpus: chosen };
}
/** The compute processes on the GPUs `CUDA_VISIBLE_DEVICES` names (all GPUs when unset). */
function appsOnVisibleGpus(snapshot, cudaVisibleDevices) {
    const uuids = new Set(visibleGpus(snapshot.gpus, cudaVisibleDevices).gpus.map((g) => g.uuid));
    return snapshot.apps.filter((a) => uuids.has(a.gpuUuid));
}
/** The GPU memory held by any of `pids` (a server and its workers). */
function memoryHeldBy(snapshot, pids) {
    const apps = snapshot.apps.filter((a) => pids.has(a.pid));
    return { mib: apps.reduce((sum, a) => sum + (a.usedMiB ?? 0), 0), apps };
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/inputs/settings.ts + 2 modules
var settings = __webpack_require__(7168);
// EXTERNAL MODULE: ./src/runtime/clock.ts
var clock = __webpack_require__(9842);
;// CONCATENATED MODULE: ./src/server/log-follower.ts
/**
 * Follows a server's log file: the lines appended since the last look, numbered, and the last lines kept for the
 * tail. Each look does a bounded amount of work whatever the file holds (a 200 MB log, a server flooding its log,
 * a log replaced by a directory), so that the wait never stalls behind it and its memory never grows with it.
 */




/** A line longer than this is cut (a progress bar redrawn with \r for an hour is one line). */
const MAX_LINE_CHARS = 2000;
/** Of a line longer than MAX_LINE_CHARS, only this many bytes are kept while it is being read (UTF-8: 4 per character). */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4;
/** Lines decoded per look: each then goes through the startup profile and `fail-pattern`. */
const LINES_PER_POLL = 1000;
/** Bytes decoded into lines per look. */
const READ_BYTES_PER_POLL = 256 * 1024;
/** Bytes only counted (for line numbers) per look. */
const COUNT_BYTES_PER_POLL = 32 * 1024 * 1024;
/**
 * And at most this long a look, read in 64 KB chunks: the action runs without V8's optimising compilers, so
 * counting the lines of `yes` output takes far longer per megabyte than an ordinary log's. A CPU budget, not a
 * time the wait depends on: it bounds how long a look holds the event loop (the deadline, signals), nothing else.
 */
const WORK_MS_PER_POLL = 20;
/**
 * Of what a log held before the wait, only its last this many bytes are read as lines (the phases so far and the
 * tail); the rest is counted. When a server writes faster than the follower reads and the backlog passes
 * BACKLOG_BYTES, the follower likewise counts its way to the last WINDOW_BYTES.
 */
const WINDOW_BYTES = 256 * 1024;
const BACKLOG_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
class LogFollower {
    path;
    keep;
    /** Bytes of the file consumed: counted, or read into lines (the unfinished last line is in `pending`). */
    offset = 0;
    lineCount = 0;
    pending = [];
    pendingBytes = 0;
    pendingCut = false;
    /** Up to where the file is only counted, not read into lines. */
    countUntil = 0;
    /** The first line read after counting began before the counting ended: counted, never shown. */
    dropPartial = false;
    /** Lines that end before this offset were in the file before the wait: handed to `earlier`, never to `poll`. */
    earlierUntil = 0;
    recent = [];
    chunk = Buffer.alloc(CHUNK_BYTES);
    earlier;
    secrets;
    /** Why the log can no longer be read (it became a directory); set once, the follower then reads nothing. */
    problem;
    /**
     * `keep`: how many last lines to hold for `tail`. Unless `fromStart` (the log of a server this process has
     * just started, where every line is new however fast it came), what the file already holds is counted and its
     * last lines are kept for the tail and handed to `earlier` (by the looks that read them), but never returned by
     * `poll`: only lines written from now on are new. Nothing is read here, so the wait starts at once.
     * `fromStart` with `skipBytes`: the server appends to a log that already held that much (an earlier run's),
     * which is only counted (by the first looks), so that line numbers are the file's.
     * `secrets` are masked in each line before it is cut to MAX_LINE_CHARS.
     */
    constructor(path, keep, { fromStart = false, skipBytes = 0, earlier, secrets = [] } = {}) {
        this.path = path;
        this.keep = keep;
        this.earlier = earlier;
        this.secrets = secrets;
        if (fromStart) {
            this.countUntil = skipBytes;
            return;
        }
        const size = this.withFile((_fd, s) => s) ?? 0;
        this.earlierUntil = size;
        this.countUntil = Math.max(0, size - WINDOW_BYTES);
    }
    /** The complete lines appended since the last call (at most LINES_PER_POLL of them). */
    poll() {
        const fresh = [];
        const old = [];
        const until = clock/* systemClock */.ml.now() + WORK_MS_PER_POLL;
        this.withFile((fd, size) => {
            // truncated or replaced (also before the first look read what it held)
            if (size < this.offset || size < this.earlierUntil)
                this.restart();
            if (size - this.offset > BACKLOG_BYTES && this.offset >= this.countUntil)
                this.countUntil = size - WINDOW_BYTES;
            if (this.offset < this.countUntil)
                this.count(fd, until);
            if (this.offset >= this.countUntil)
                this.read(fd, size, fresh, old, until);
        });
        if (old.length > 0)
            this.earlier?.(old);
        return fresh;
    }
    /** Whether lines already written are still unread. */
    behind() {
        return (this.withFile((_fd, size) => size > this.offset) ?? false) && this.problem === undefined;
    }
    /** Opens the file without blocking (a FIFO would) and checks it is still a regular file; undefined when it is not there. */
    withFile(use) {
        if (this.problem !== undefined)
            return undefined;
        let fd;
        try {
            fd = (0,external_node_fs_.openSync)(this.path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NONBLOCK);
        }
        catch (e) {
            if (e.code !== 'ENOENT')
                this.fail(e);
            return undefined; // not written yet
        }
        try {
            const stat = (0,external_node_fs_.fstatSync)(fd);
            const what = (0,settings/* notRegularFile */.s5)(stat);
            if (what !== undefined) {
                this.problem = `the log ${this.path} is no longer a regular file (it is ${what} now)`;
                return undefined;
            }
            return use(fd, stat.size);
        }
        catch (e) {
            this.fail(e);
            return undefined;
        }
        finally {
            (0,external_node_fs_.closeSync)(fd);
        }
    }
    fail(e) {
        this.problem = `the log ${this.path} cannot be read (${e.code ?? e.message})`;
    }
    /** Counts the lines up to `countUntil`, within the look's budget, reading nothing into memory. */
    count(fd, until) {
        const end = Math.min(this.countUntil, this.offset + COUNT_BYTES_PER_POLL);
        let last = -1;
        while (this.offset < end && clock/* systemClock */.ml.now() < until) {
            const n = (0,external_node_fs_.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
            if (n === 0)
                break;
            // one native pass (a loop in JavaScript, or indexOf per line, is several times slower without the optimising compilers)
            const text = this.chunk.toString('latin1', 0, n);
            this.lineCount += text.length - text.replaceAll('\n', '').length;
            last = this.chunk[n - 1];
            this.offset += n;
        }
        if (last === -1)
            return;
        // what was pending is part of a counted line now; the line under way at the end of counting is never whole
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.dropPartial = last !== 0x0a;
    }
    read(fd, size, fresh, old, until) {
        const end = Math.min(size, this.offset + READ_BYTES_PER_POLL);
        let lines = 0;
        while (this.offset < end && lines < LINES_PER_POLL && clock/* systemClock */.ml.now() < until) {
            const n = (0,external_node_fs_.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
            if (n === 0)
                break;
            let start = 0;
            for (let nl = this.chunk.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = this.chunk.indexOf(0x0a, start)) {
                this.take(this.chunk.subarray(start, nl));
                start = nl + 1;
                const line = this.finishLine();
                if (line !== undefined) {
                    ;
                    (this.offset + start <= this.earlierUntil ? old : fresh).push(line);
                    if (++lines >= LINES_PER_POLL)
                        break;
                }
            }
            if (lines >= LINES_PER_POLL && start < n) {
                this.offset += start; // the rest is read by the next look
                return;
            }
            this.take(this.chunk.subarray(start, n));
            this.offset += n;
        }
    }
    /** Adds bytes to the unfinished line, keeping at most MAX_LINE_BYTES of it. */
    take(bytes) {
        const room = MAX_LINE_BYTES - this.pendingBytes;
        if (bytes.length > room)
            this.pendingCut = true;
        const kept = bytes.subarray(0, Math.max(0, room));
        if (kept.length === 0)
            return;
        this.pending.push(Buffer.from(kept));
        this.pendingBytes += kept.length;
    }
    /** The unfinished line is finished: numbered, kept for the tail, and returned unless it was partly counted. */
    finishLine() {
        const text = this.pendingText();
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.lineCount++;
        if (this.dropPartial) {
            this.dropPartial = false;
            return undefined;
        }
        const line = { number: this.lineCount, text: text.replace(/\r$/, '') };
        if (this.keep > 0) {
            this.recent.push(line);
            if (this.recent.length > this.keep)
                this.recent.shift();
        }
        return line;
    }
    pendingText() {
        const text = (0,inputs_secrets/* redact */.E$)(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'), this.secrets);
        return text.length > MAX_LINE_CHARS || this.pendingCut ? `${text.slice(0, MAX_LINE_CHARS)}\u2026` : text;
    }
    /**
     * The last `keep` lines, including an unfinished last line; undefined when the file does not exist. Reads what
     * is left (within a bounded number of looks) first, so that the tail ends where the file does.
     */
    tail() {
        for (let looks = 0; looks < 20 && this.behind(); looks++)
            this.poll();
        if (this.problem === undefined && this.withFile(() => true) === undefined)
            return undefined;
        if (this.keep === 0)
            return [];
        const unfinished = this.pendingBytes === 0 || this.dropPartial ? [] : [{ number: this.lineCount + 1, text: this.pendingText() }];
        return [...this.recent, ...unfinished].slice(-this.keep);
    }
    restart() {
        this.offset = 0;
        this.lineCount = 0;
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.countUntil = 0;
        this.dropPartial = false;
        this.earlierUntil = 0;
    }
}

;// CONCATENATED MODULE: ./src/server/proc.ts
/** Reading Linux's /proc: one process's stat line, the process ids, a command line. Undefined or empty without it. */

function procStat(pid, proc = '/proc') {
    try {
        const stat = (0,external_node_fs_.readFileSync)(`${proc}/${pid}/stat`, 'utf8');
        // the command name in parentheses may hold spaces and parentheses: count fields from the last ')'
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), startTicks: Number(f[19]) };
    }
    catch {
        return undefined;
    }
}
/** Every process id /proc shows (empty without /proc). */
function procPids(proc = '/proc') {
    try {
        return (0,external_node_fs_.readdirSync)(proc)
            .filter((n) => /^\d+$/.test(n))
            .map(Number);
    }
    catch {
        return [];
    }
}
const MAX_COMMAND = 500;
/** The command line of `pid`, arguments joined by spaces (its name in brackets where it has none), or "" once gone. */
function commandLine(pid, proc = '/proc') {
    try {
        const args = (0,external_node_fs_.readFileSync)(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        if (args !== '')
            return args.length > MAX_COMMAND ? `${args.slice(0, MAX_COMMAND)}\u2026` : args;
        return `[${(0,external_node_fs_.readFileSync)(`${proc}/${pid}/comm`, 'utf8').trim()}]`;
    }
    catch {
        return '';
    }
}

// EXTERNAL MODULE: ./src/http/hosts.ts
var hosts = __webpack_require__(2327);
;// CONCATENATED MODULE: ./src/server/port-owner.ts
/**
 * Who listens on a local TCP port, read from Linux's /proc: the listening sockets of /proc/net/tcp and tcp6, each
 * socket's inode found among the processes' file descriptors (/proc/<pid>/fd \u2192 `socket:[inode]`), and each
 * holder's command line. Structured answers only; without /proc (not Linux) the answer is `unknown`.
 *
 * /proc/net/tcp is the table of the reader's network namespace: a server in a container with its own
 * namespace (docker -p) shows as the proxy that forwards the port, which is what answers the gate anyway.
 */



const LISTEN = '0A';
/** Who listens on `port` (any local address, IPv4 and IPv6). */
function portOwner(port, { proc = '/proc' } = {}) {
    const sockets = listeningSockets(proc, port);
    if (sockets === undefined)
        return { kind: 'unknown', port };
    if (sockets.length === 0)
        return { kind: 'free', port };
    const holders = socketHolders(proc, new Set(sockets.map((s) => s.inode)));
    return {
        kind: 'listening',
        port,
        listeners: sockets.map((s) => ({ ...s, holders: holders.get(s.inode) ?? [] }))
    };
}
/**
 * Whether what listens on `port` belongs to the process `pid` or its descendants (a `start` shell that runs the
 * server as its child, a server that forks workers): the listening socket's inode among their descriptors.
 */
function listenerOwnership(port, pid, options = {}) {
    const owner = portOwner(port, options);
    if (owner.kind !== 'listening')
        return owner;
    const family = processTree(options.proc ?? '/proc', pid);
    for (const l of owner.listeners) {
        const holder = l.holders.find((h) => family.has(h.pid));
        if (holder !== undefined)
            return { kind: 'ours', port, holder };
    }
    return { kind: 'foreign', port, listeners: owner.listeners };
}
/** `pid` and every process descended from it, from the parent ids of /proc/<pid>/stat. */
function processTree(proc, pid) {
    const children = new Map();
    for (const p of procPids(proc)) {
        const parent = procStat(p, proc)?.ppid;
        if (parent !== undefined)
            children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const family = new Set([pid]);
    const queue = [pid];
    while (queue.length > 0) {
        for (const child of children.get(queue.shift()) ?? []) {
            if (family.has(child))
                continue;
            family.add(child);
            queue.push(child);
        }
    }
    return family;
}
/** The listening sockets on `port`; undefined when neither table can be read. */
function listeningSockets(proc, port) {
    let read = false;
    const found = [];
    for (const table of ['tcp', 'tcp6']) {
        let text;
        try {
            text = (0,external_node_fs_.readFileSync)(`${proc}/net/${table}`, 'utf8');
            read = true;
        }
        catch {
            continue; // tcp6 is absent on a kernel without IPv6
        }
        for (const line of text.split('\n').slice(1)) {
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode \u2026
            const f = line.trim().split(/\s+/);
            if (f.length < 10 || f[3] !== LISTEN)
                continue;
            const [hexAddress, hexPort] = f[1].split(':');
            if (parseInt(hexPort, 16) !== port)
                continue;
            found.push({ address: decodeAddress(hexAddress), port, inode: Number(f[9]) });
        }
    }
    return read ? found : undefined;
}
/** The kernel prints each 32-bit word of the address in host order (little-endian on the runners' x86 and arm64). */
function decodeAddress(hex) {
    const words = hex.match(/.{8}/g) ?? [];
    const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
    if (bytes.length === 4)
        return bytes.join('.');
    const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
    if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff')
        return `::ffff:${bytes.slice(12).join('.')}`;
    // the shortest form for the common cases (:: and ::1); other addresses in full
    const text = groups.join(':');
    return text === '0:0:0:0:0:0:0:0' ? '::' : text === '0:0:0:0:0:0:0:1' ? '::1' : text;
}
/** The processes holding each of `inodes` among their file descriptors (those this user may read). */
function socketHolders(proc, inodes) {
    const holders = new Map();
    for (const pid of procPids(proc)) {
        let fds;
        try {
            fds = (0,external_node_fs_.readdirSync)(`${proc}/${pid}/fd`);
        }
        catch {
            continue; // another user's process, or gone
        }
        const held = new Set();
        for (const fd of fds) {
            let target;
            try {
                target = (0,external_node_fs_.readlinkSync)(`${proc}/${pid}/fd/${fd}`);
            }
            catch {
                continue;
            }
            const m = /^socket:\[(\d+)\]$/.exec(target);
            if (m && inodes.has(Number(m[1])))
                held.add(Number(m[1]));
        }
        if (held.size === 0)
            continue;
        const info = { pid, command: commandLine(pid, proc) };
        for (const inode of held)
            holders.set(inode, [...(holders.get(inode) ?? []), info]);
    }
    return holders;
}
/**
 * The port to check when `url` names this machine (loopback, `localhost`, this host's name or one of its
 * addresses), else undefined: a server elsewhere is probed as it is, its port is none of this machine's business.
 */
function localPort(url, hostName = process.getBuiltinModule('node:os').hostname()) {
    const host = (0,hosts/* bareHost */.n0)(url.hostname);
    const os = process.getBuiltinModule('node:os');
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase()));
    const local = (0,hosts/* isLoopback */.U9)(url.hostname) ||
        host.endsWith('.localhost') ||
        host === hostName.toLowerCase() ||
        addresses.includes(host);
    if (!local)
        return undefined;
    return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
/** Docker's userland proxy, which holds a container's published port on the host (`docker run -p`). */
const isDockerProxy = (command) => /(^|\/)docker-proxy(\s|$)/.test(command);

;// CONCATENATED MODULE: ./src/server/preflight.ts
/**
 * Before `start` launches anything: is the port the server will listen on free, and what else holds memory on the
 * GPUs it will use? A server an earlier job left behind would answer the gate in the new one's place, or make it
 * fail on "address in use"; a foreign process on its GPUs can make it run out of memory. Structured answers only;
 * the words are in report/lifecycle-report.ts, the decision (fail, warn) in the conclusion.
 */


/** Checks the ports of `urls` that name this machine, and the GPUs as `gpuCheck` asks. */
async function preflight(urls, gpuCheck, deps) {
    let portBusy;
    for (const port of new Set(urls.map((u) => localPort(u, deps.hostName)))) {
        // a host elsewhere is probed as before: its port is not this machine's to check
        if (port === undefined)
            continue;
        const owner = portOwner(port, { proc: deps.proc });
        if (owner.kind === 'listening') {
            portBusy = owner;
            break;
        }
    }
    return { portBusy, gpu: await gpuFinding(gpuCheck, deps) };
}
async function gpuFinding(gpuCheck, deps) {
    if (gpuCheck === 'off')
        return { kind: 'off' };
    const snapshot = await (deps.gpu ?? (() => gpuSnapshot({ env: deps.env, timeoutMs: 5_000 })))();
    if (snapshot.kind === 'unavailable')
        return { kind: 'unavailable', why: snapshot.why, detail: snapshot.detail };
    const apps = appsOnVisibleGpus(snapshot, deps.env.CUDA_VISIBLE_DEVICES);
    // a process nvidia-smi shows with 0 MiB holds nothing to speak of; one it cannot measure ([N/A]) may hold much
    const holding = apps.filter((a) => a.usedMiB === undefined || a.usedMiB > 0);
    return holding.length > 0
        ? { kind: 'busy', apps: holding, gpus: snapshot.gpus }
        : { kind: 'clear', gpus: snapshot.gpus };
}
/** What the pre-flight means for the wait: `refuse` ends it before anything starts; `warnGpu` says so and goes on. */
function preflightVerdict(p, gpuCheck) {
    const gpuBusy = p.gpu.kind === 'busy';
    if (p.portBusy !== undefined)
        return { refuse: 'port-busy', warnGpu: gpuBusy };
    if (gpuBusy && gpuCheck === 'fail')
        return { refuse: 'gpu-busy', warnGpu: false };
    return { warnGpu: gpuBusy };
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/inputs/parse.ts
var parse = __webpack_require__(3718);
// EXTERNAL MODULE: ./src/inputs/variables.ts
var variables = __webpack_require__(6192);
;// CONCATENATED MODULE: ./src/server/process.ts
/**
 * The model server as a process: launched in the background by `start`, or found by `pid`; watched until it
 * exits; its start time and environment read from /proc (Linux). The gate leaves it running either way.
 */







/**
 * Where the log goes with `start` and no `log-file`: a new file in the runner's temporary directory (the system's
 * outside a runner) named with this run's pid, `model-server-<pid>.log`, created now so that no other run's log is
 * ever truncated (two gates at once on one machine, or a pid reused since an earlier run: then `-2`, `-3`, \u2026).
 */
function newLogFile(env, pid = process.pid) {
    const dir = env.RUNNER_TEMP || (0,external_node_os_.tmpdir)();
    for (let n = 1;; n++) {
        const path = (0,external_node_path_.join)(dir, `model-server-${pid}${n === 1 ? '' : `-${n}`}.log`);
        try {
            if (n === 1)
                (0,external_node_fs_.mkdirSync)(dir, { recursive: true });
            (0,external_node_fs_.closeSync)((0,external_node_fs_.openSync)(path, 'wx'));
            return path;
        }
        catch (e) {
            const code = e.code;
            if (code === 'EEXIST' && n < 1000)
                continue;
            throw new settings/* InputError */.dz('log-file', `none given, and no new log can be created in "${(0,parse/* printable */.g$)(dir)}" (${code ?? e.message})`);
        }
    }
}
/** The step's environment, without the action's own `INPUT_*` variables (which carry its api-key). */
function serverEnv(env) {
    return Object.fromEntries(Object.entries(env).filter((e) => e[1] !== undefined && !(0,variables/* isInputVariable */.lh)(e[0])));
}
const FOREGROUND_HINT = '"start" must run the server in the foreground, without & or nohup: the action puts it in the background';
/** Like a `run:` step: bash, which also execs a lone command so that the pid is the server's own. */
const SHELL = (0,external_node_fs_.existsSync)('/bin/bash') ? '/bin/bash' : '/bin/sh';
/**
 * Runs `command` with the shell, detached in its own process group (pid = group id) so that it outlives the
 * step and a signal to the action does not reach it; stdout and stderr are appended to `logFile` (never truncated:
 * it may be a log the user keeps, or another run's).
 */
function startServer(command, logFile, env, clock) {
    let fd;
    let logOffset;
    try {
        (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(logFile), { recursive: true });
        fd = (0,external_node_fs_.openSync)(logFile, 'a');
        logOffset = (0,external_node_fs_.fstatSync)(fd).size;
    }
    catch (e) {
        throw new settings/* InputError */.dz('log-file', `"${(0,parse/* printable */.g$)(logFile)}" cannot be written (${e.code ?? e.message})`);
    }
    try {
        // node:child_process (with node:dgram) only for `start`
        const child = process
            .getBuiltinModule('node:child_process')
            .spawn(SHELL, ['-c', command], { detached: true, stdio: ['ignore', fd, fd], env });
        const startedAt = clock.now();
        const exited = new Promise((resolve) => {
            child.once('error', (e) => resolve(`could not be started (${e.message})`));
            child.once('exit', (code, signal) => resolve(signal
                ? `was killed by ${signal}`
                : code === 0
                    ? `exited with code 0 (${FOREGROUND_HINT})`
                    : `exited with code ${code}`));
        });
        child.unref();
        const pid = child.pid;
        if (pid === undefined)
            throw new Error(`could not start ${SHELL} for "start"`);
        return {
            pid,
            startedAt,
            exited,
            // Once the shell has exec'd the server (or if it has exited), what it was given is what it started with.
            environ: () => readEnviron(pid) ?? env,
            release: () => child.removeAllListeners(),
            logOffset
        };
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/** Watches a process started elsewhere; it is polled, since only a parent hears of its child's exit. */
function attachServer(pid, clock, pollMs = 250) {
    const first = procStat(pid);
    const ageMs = first === undefined ? undefined : processAgeMs(first.startTicks);
    let timer;
    const exited = new Promise((resolve) => {
        const check = () => {
            const why = gone(pid, first?.startTicks);
            if (why === undefined)
                return;
            clearInterval(timer);
            resolve(why);
        };
        timer = setInterval(check, pollMs);
        check();
    });
    return {
        pid,
        startedAt: ageMs === undefined ? undefined : clock.now() - ageMs,
        exited,
        environ: () => readEnviron(pid),
        release: () => clearInterval(timer)
    };
}
/** Reads `pid` when it names a file. */
function resolvePid(spec) {
    if ('pid' in spec)
        return spec.pid;
    let text;
    try {
        text = (0,external_node_fs_.readFileSync)(spec.file, 'utf8').trim();
    }
    catch (e) {
        throw new settings/* InputError */.dz('pid', `could not read "${(0,parse/* printable */.g$)(spec.file)}" (${e.code ?? e.message}): give ${settings/* PID_FORM */.b5}`);
    }
    if (!/^\d+$/.test(text) || Number(text) < 1)
        throw new settings/* InputError */.dz('pid', `"${(0,parse/* printable */.g$)(spec.file)}" holds "${(0,parse/* printable */.g$)(text)}", not a process id`);
    return Number(text);
}
/** Why the process is no longer running, or undefined while it runs. */
function gone(pid, startTicks) {
    const stat = procStat(pid);
    if (stat !== undefined) {
        if (stat.state === 'Z')
            return 'has exited (a zombie awaiting its parent)';
        // the same id on a process that started at another time: ours is gone and the id was reused
        if (startTicks !== undefined && stat.startTicks !== startTicks)
            return 'has exited (its process id now belongs to another process)';
        return undefined;
    }
    try {
        process.kill(pid, 0);
        return undefined;
    }
    catch (e) {
        return e.code === 'EPERM' ? undefined : 'is not running';
    }
}
/** USER_HZ, the unit of /proc start times: 100 on every Linux architecture GitHub runners use. */
const TICKS_PER_SECOND = 100;
function processAgeMs(startTicks) {
    try {
        const uptimeS = Number((0,external_node_fs_.readFileSync)('/proc/uptime', 'utf8').split(' ')[0]);
        return Math.max(0, uptimeS * 1000 - (startTicks * 1000) / TICKS_PER_SECOND);
    }
    catch {
        return undefined;
    }
}
function readEnviron(pid) {
    try {
        const entries = (0,external_node_fs_.readFileSync)(`/proc/${pid}/environ`, 'utf8')
            .split('\0')
            .filter((e) => e.includes('='));
        return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/wait/server-side.ts
/**
 * What only a wait with a server to start or follow, or a server log to read, needs. `gate` imports it then and
 * only then: it is a chunk of the bundle of its own, so a plain wait (a URL, a model) neither compiles nor holds
 * it (about 40 KB of the action's own code; `npm run bench -- --only startup`).
 */








/***/ })

};
