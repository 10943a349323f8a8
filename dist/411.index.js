export const id = 411;
export const ids = [411];
export const modules = {

/***/ 5568:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   p: () => (/* binding */ LogFollower)
/* harmony export */ });
/* unused harmony export MAX_LINE_CHARS */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _inputs_secrets_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3332);
/* harmony import */ var _inputs_settings_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6137);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9842);
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
        const until = _runtime_clock_js__WEBPACK_IMPORTED_MODULE_2__/* .systemClock */ .ml.now() + WORK_MS_PER_POLL;
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
            fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.openSync)(this.path, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK);
        }
        catch (e) {
            if (e.code !== 'ENOENT')
                this.fail(e);
            return undefined; // not written yet
        }
        try {
            const stat = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.fstatSync)(fd);
            const what = (0,_inputs_settings_js__WEBPACK_IMPORTED_MODULE_1__/* .notRegularFile */ .s5)(stat);
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
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
        }
    }
    fail(e) {
        this.problem = `the log ${this.path} cannot be read (${e.code ?? e.message})`;
    }
    /** Counts the lines up to `countUntil`, within the look's budget, reading nothing into memory. */
    count(fd, until) {
        const end = Math.min(this.countUntil, this.offset + COUNT_BYTES_PER_POLL);
        let last = -1;
        while (this.offset < end && _runtime_clock_js__WEBPACK_IMPORTED_MODULE_2__/* .systemClock */ .ml.now() < until) {
            const n = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
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
        while (this.offset < end && lines < LINES_PER_POLL && _runtime_clock_js__WEBPACK_IMPORTED_MODULE_2__/* .systemClock */ .ml.now() < until) {
            const n = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
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
        const text = (0,_inputs_secrets_js__WEBPACK_IMPORTED_MODULE_3__/* .redact */ .E$)(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'), this.secrets);
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


/***/ }),

/***/ 8706:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   WZ: () => (/* binding */ processTree),
/* harmony export */   f_: () => (/* binding */ isDockerProxy),
/* harmony export */   kA: () => (/* binding */ listenerOwnership),
/* harmony export */   l: () => (/* binding */ portOwner),
/* harmony export */   yv: () => (/* binding */ localPort)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7707);
/* harmony import */ var _http_hosts_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2327);
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
    for (const p of (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procPids */ .bU)(proc)) {
        const parent = (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procStat */ .jW)(p, proc)?.ppid;
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
            text = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/net/${table}`, 'utf8');
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
    for (const pid of (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procPids */ .bU)(proc)) {
        let fds;
        try {
            fds = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readdirSync)(`${proc}/${pid}/fd`);
        }
        catch {
            continue; // another user's process, or gone
        }
        const held = new Set();
        for (const fd of fds) {
            let target;
            try {
                target = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readlinkSync)(`${proc}/${pid}/fd/${fd}`);
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
        const info = { pid, command: (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .commandLine */ .ay)(pid, proc) };
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
    const host = (0,_http_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .bareHost */ .n0)(url.hostname);
    const os = process.getBuiltinModule('node:os');
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase()));
    const local = (0,_http_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .isLoopback */ .U9)(url.hostname) ||
        host.endsWith('.localhost') ||
        host === hostName.toLowerCase() ||
        addresses.includes(host);
    if (!local)
        return undefined;
    return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
/** Docker's userland proxy, which holds a container's published port on the host (`docker run -p`). */
const isDockerProxy = (command) => /(^|\/)docker-proxy(\s|$)/.test(command);


/***/ }),

/***/ 7707:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ay: () => (/* binding */ commandLine),
/* harmony export */   bU: () => (/* binding */ procPids),
/* harmony export */   jW: () => (/* binding */ procStat)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/** Reading Linux's /proc: one process's stat line, the process ids, a command line. Undefined or empty without it. */

function procStat(pid, proc = '/proc') {
    try {
        const stat = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/${pid}/stat`, 'utf8');
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
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readdirSync)(proc)
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
        const args = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        if (args !== '')
            return args.length > MAX_COMMAND ? `${args.slice(0, MAX_COMMAND)}\u2026` : args;
        return `[${(0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/${pid}/comm`, 'utf8').trim()}]`;
    }
    catch {
        return '';
    }
}


/***/ }),

/***/ 6792:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  conclude: () => (/* binding */ conclude)
});

// EXTERNAL MODULE: ./src/wait/outcome.ts
var outcome = __webpack_require__(7389);
// EXTERNAL MODULE: ./src/report/smoke-report.ts
var smoke_report = __webpack_require__(1542);
// EXTERNAL MODULE: ./src/server/log-follower.ts
var log_follower = __webpack_require__(5568);
// EXTERNAL MODULE: ./src/server/proc.ts
var proc = __webpack_require__(7707);
// EXTERNAL MODULE: ./src/server/port-owner.ts
var port_owner = __webpack_require__(8706);
;// CONCATENATED MODULE: ./src/server/stop.ts
/**
 * Stops a server and everything it started: SIGTERM to its process group, up to a timeout for it to exit, then
 * SIGKILL; then waits until none of its processes remain and, where nvidia-smi tells, until none of them holds GPU
 * memory (the next job on a shared runner needs it back). The answer is a record of how it went, never words.
 */



/** Stops the server `pid` and its processes; see the module comment. */
async function stop_stopServer(options, deps) {
    const { clock } = deps;
    const proc = deps.proc ?? '/proc';
    const pollMs = options.pollMs ?? 100;
    const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
    const leader = procStat(options.pid, proc);
    const inGroup = () => procPids(proc).filter((p) => procStat(p, proc)?.pgrp === options.pid);
    // A group outlives its leader (workers left behind by a server that crashed), and Linux reuses no pid that
    // still names a group: with the leader gone, processes in group `pid` are that server's.
    // never the group this process is in: that would stop the stopper (and the runner's step with it)
    const own = options.pid === procStat(process.pid, proc)?.pgrp;
    const scope = !own && (leader === undefined ? inGroup().length > 0 : leader.pgrp === options.pid) ? 'group' : 'tree';
    const members = () => {
        const tree = [...processTree(proc, options.pid)];
        const group = scope === 'group' ? inGroup() : [];
        return [...new Set([...tree, ...group])].flatMap((pid) => {
            const stat = procStat(pid, proc);
            // without /proc only the pid itself can be asked about
            if (stat === undefined)
                return pid === options.pid && signalled(kill, pid, 0) ? [{ pid }] : [];
            return stat.state === 'Z' ? [] : [{ pid, startTicks: stat.startTicks }];
        });
    };
    const initial = members();
    const base = { pid: options.pid, scope, pids: initial.map((m) => m.pid) };
    if (initial.length === 0)
        return { ...base, outcome: 'not-running', gpu: { kind: 'none' } };
    const before = deps.gpu ? await deps.gpu() : undefined;
    // every process seen as the server's, by pid and start time (a reused pid is another process)
    const tracked = new Map(initial.map((m) => [m.pid, m.startTicks]));
    const family = () => new Set(tracked.keys());
    const atStart = before?.kind === 'available' ? memoryHeldBy(before, family()) : undefined;
    const heldAtStart = atStart?.mib ?? 0;
    let exit;
    void deps.exited?.then((e) => (exit = e));
    const alive = () => {
        const now = members();
        // any process the server has started since counts too
        for (const m of now)
            if (!tracked.has(m.pid))
                tracked.set(m.pid, m.startTicks);
        return now.filter((m) => tracked.get(m.pid) === m.startTicks).map((m) => m.pid);
    };
    const send = (signal) => {
        if (scope === 'group')
            signalled(kill, -options.pid, signal);
        else
            for (const pid of alive())
                signalled(kill, pid, signal);
    };
    const waitGone = async (ms) => {
        const until = clock.now() + ms;
        for (;;) {
            if (alive().length === 0)
                return true;
            if (clock.now() >= until)
                return false;
            await clock.sleep(Math.min(pollMs, until - clock.now()));
        }
    };
    const termAt = clock.now();
    const seconds = () => Math.round((clock.now() - termAt) / 100) / 10;
    send('SIGTERM');
    let signal = 'SIGTERM';
    let gone = await waitGone(options.timeoutMs);
    if (!gone) {
        signal = 'SIGKILL';
        send('SIGKILL');
        gone = await waitGone(options.killWaitMs ?? 10_000);
    }
    const secondsToExit = seconds();
    // /proc loses a process a moment before its parent hears of the exit: a few polls for the code
    for (let i = 0; gone && deps.exited !== undefined && exit === undefined && i < 10; i++)
        await clock.sleep(pollMs);
    const exited = {
        signal,
        ...(exit === undefined ? {} : { exitCode: exit.code, exitSignal: exit.signal })
    };
    const record = gone
        ? { ...base, ...exited, outcome: 'exited', secondsToExit }
        : { ...base, ...exited, outcome: 'survived', survivors: alive() };
    if (before === undefined)
        return { ...record, gpu: { kind: 'unavailable', why: 'not asked' } };
    if (before.kind === 'unavailable')
        return { ...record, gpu: { kind: 'unavailable', why: before.why } };
    // an entry whose memory nvidia-smi cannot show ([N/A]) still holds some: waited for like the others
    if (atStart === undefined || atStart.apps.length === 0)
        return { ...record, gpu: { kind: 'none' } };
    const gpuUntil = clock.now() + (options.gpuWaitMs ?? 30_000);
    for (;;) {
        const now = await deps.gpu();
        const held = now.kind === 'available' ? memoryHeldBy(now, family()) : undefined;
        if (held !== undefined && held.apps.length === 0)
            return { ...record, gpu: { kind: 'released', mib: heldAtStart, seconds: seconds() } };
        if (clock.now() >= gpuUntil) {
            return {
                ...record,
                gpu: {
                    kind: 'held',
                    mib: heldAtStart,
                    heldMib: held?.mib ?? heldAtStart,
                    seconds: seconds(),
                    pids: [...new Set(held?.apps.map((a) => a.pid) ?? [])]
                }
            };
        }
        await clock.sleep(Math.min(pollMs, gpuUntil - clock.now()));
    }
}
/** Sends `signal` (0: only asks whether `pid` exists); false when there is no such process. */
function signalled(kill, pid, signal) {
    try {
        kill(pid, signal);
        return true;
    }
    catch (e) {
        // EPERM: it exists, but belongs to someone else
        return e.code === 'EPERM';
    }
}

;// CONCATENATED MODULE: ./src/server/job-end.ts


/** State names, as the runner passes them back: `STATE_<name>`. */
const NAMES = { pid: 'server-pid', timeoutMs: 'stop-timeout-ms', logFile: 'server-log-file', logLines: 'log-lines' };
/** The state to save after the wait, or undefined when the post step has nothing to do. */
function jobEndState(settings, server) {
    // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
    if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined)
        return undefined;
    return {
        [NAMES.pid]: String(server.pid),
        [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
        [NAMES.logFile]: server.logFile ?? '',
        [NAMES.logLines]: String(settings.logLines)
    };
}
/** Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. */
function readJobEndState(get) {
    const pid = Number(get(NAMES.pid));
    if (!Number.isInteger(pid) || pid < 2)
        return undefined;
    const timeoutMs = Number(get(NAMES.timeoutMs));
    const logLines = Number(get(NAMES.logLines));
    return {
        pid,
        timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
        logFile: get(NAMES.logFile) || undefined,
        logLines: Number.isInteger(logLines) && logLines >= 0 ? logLines : 50
    };
}
/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
async function stopAtJobEnd(state, deps) {
    const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs }, deps);
    const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL';
    const clean = exitedOnTerm && record.gpu.kind !== 'held';
    // why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
    const logTail = exitedOnTerm || state.logFile === undefined || state.logLines === 0
        ? undefined
        : new LogFollower(state.logFile, state.logLines).tail();
    return { record, clean, logTail, logFile: state.logFile };
}

// EXTERNAL MODULE: ./src/report/wait-report.ts
var wait_report = __webpack_require__(912);
;// CONCATENATED MODULE: ./src/wait/conclusion.ts
/**
 * What must happen once the wait is over, decided once for every front end (the action, the CLI, and later a
 * job-end step and a one-shot check): the outputs, the final line, the log tail, the diagnostics to run, fail or
 * warn, the exit code. A front end only carries it out in its medium. Pure: no I/O, nothing of GitHub or a shell.
 */




/** The report's view of the settings, for `url` (the endpoint the outcome describes). */
const reportContext = (s, url) => ({
    url,
    expect: (0,outcome/* expectation */.p)(s),
    timeoutMs: s.timeoutMs
});
/** Each endpoint's smoke test that could not measure throughput, in words. */
function smokeProblems(outcome) {
    const fleet = outcome.results.length > 1;
    const messages = outcome.results.flatMap((r) => r.smoke?.problem === undefined ? [] : [(0,smoke_report/* smokeProblemMessage */.c7)(r.smoke, fleet ? r.url : undefined)]);
    return messages.length === 0 ? undefined : messages.join('\n');
}
const smokeFailed = (r) => r.smoke?.problem !== undefined;
function conclude(gateOutcome, settings) {
    const smokeMessage = gateOutcome.ready ? smokeProblems(gateOutcome) : undefined;
    const failSmoke = smokeMessage !== undefined && settings.smoke?.failOnError === true;
    // Ready means ready: with fail-on-error, a server that cannot generate a measured stream is not.
    const outcome = failSmoke
        ? {
            ...gateOutcome,
            ready: false,
            reason: 'smoke-failed',
            results: gateOutcome.results.map((r) => (smokeFailed(r) ? { ...r, ready: false, reason: 'smoke-failed' } : r))
        }
        : gateOutcome;
    const context = reportContext(settings, outcome.url);
    const tail = outcome.ready ? undefined : outcome.server?.logTail;
    const verdict = outcome.ready
        ? undefined
        : {
            kind: outcome.reason === 'timeout' && !settings.failOnTimeout ? 'warn' : 'fail',
            message: failSmoke ? smokeMessage : (0,wait_report/* failureMessage */.oh)(outcome, context)
        };
    const regression = outcome.profile?.regression;
    const failedRegression = settings.failOnRegression ? regression : undefined;
    const failedThroughput = settings.failOnRegression ? outcome.profile?.throughputRegression : undefined;
    return {
        outcome,
        ready: outcome.ready,
        outputs: Object.fromEntries(Object.entries((0,wait_report/* outputs */.V4)(outcome)).map(([name, value]) => [name, (0,wait_report/* redact */.E$)(value, settings.secrets)])),
        finalLine: (0,wait_report/* finalLine */.R2)(outcome),
        logTail: tail && {
            title: (0,wait_report/* logTailTitle */.Nn)(tail, outcome.server?.logFile),
            lines: tail.map((line) => `${line.number}: ${line.text}`)
        },
        // A cancelled job must end within a second; the diagnostics could take minutes.
        diagnostics: outcome.ready || outcome.reason === 'cancelled' ? [] : settings.diagnostics,
        verdict,
        failedRegression,
        failedThroughput,
        smokeWarning: failSmoke ? undefined : smokeMessage,
        exitCode: verdict?.kind === 'fail' || failedRegression !== undefined || failedThroughput !== undefined ? 1 : 0,
        context,
        jobEndState: jobEndState(settings, outcome.server)
    };
}


/***/ })

};
