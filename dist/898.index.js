export const id = 898;
export const ids = [898];
export const modules = {

/***/ 2686:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   aW: () => (/* binding */ bootId),
/* harmony export */   gO: () => (/* binding */ descendantsOf),
/* harmony export */   xO: () => (/* binding */ RUN_MARKER)
/* harmony export */ });
/* unused harmony exports processGuard, identify, markedProcesses */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7707);
/**
 * Which processes a stop may signal, read from Linux's /proc. Never this process, one of its ancestors (the
 * runner's step, the runner itself), pid 1, a runner's own processes (`Runner.Worker`, `Runner.Listener`, its
 * service scripts), nor a process group any of them is in. A pid recorded at launch is the server only while it
 * names the process that started then (`/proc/<pid>/stat` field 22, on the same boot): Linux reuses pids, and a
 * server that died early leaves its pid to a stranger. A process that carries the run's marker in its
 * environment (`WAIT_FOR_MODEL_RUN=<id>`, set at launch and inherited by whatever the server starts) is the
 * server's, wherever it went: a worker that double-forked out of the group, an orphaned engine core.
 */


/** The variable `start` tags the server's environment with. */
const RUN_MARKER = 'WAIT_FOR_MODEL_RUN';
/** The runner's own programs, by their command line (the hosted runners' and a self-hosted one's, as installed). */
const RUNNER_COMMAND = /(^|\/)(Runner\.Worker|Runner\.Listener|runsvc\.sh|run-helper\.sh)(\s|$)/;
/** An ancestor chain longer than this is a loop in a hostile or broken /proc: stop walking. */
const MAX_DEPTH = 4096;
/** The processes and groups a stop must leave alone, as seen now from `self` (this process). */
function processGuard(proc = '/proc', self = process.pid) {
    const spared = new Map([[1, 'init']]);
    const groups = new Set();
    const selfStat = procStat(self, proc);
    spared.set(self, 'self');
    if (selfStat !== undefined)
        groups.add(selfStat.pgrp);
    // without /proc only the parent is known
    let parent = selfStat?.ppid ?? (self === process.pid ? process.ppid : 0);
    for (let depth = 0; parent > 1 && depth < MAX_DEPTH && !spared.has(parent); depth++) {
        spared.set(parent, 'ancestor');
        const stat = procStat(parent, proc);
        if (stat !== undefined)
            groups.add(stat.pgrp);
        parent = stat?.ppid ?? 0;
    }
    for (const pid of procPids(proc)) {
        if (spared.has(pid) || !RUNNER_COMMAND.test(commandLine(pid, proc)))
            continue;
        spared.set(pid, 'runner');
        const stat = procStat(pid, proc);
        if (stat !== undefined)
            groups.add(stat.pgrp);
    }
    // The leader of a group this process, an ancestor or the runner is in need not be an ancestor (the shell of a
    // pipeline, a job-control wrapper): signalling it would stop the stopper's own job all the same.
    return {
        spared: (pid) => spared.get(pid) ?? (groups.has(pid) ? 'group-leader' : undefined),
        groupSpared: (pgid) => groups.has(pgid) || spared.has(pgid)
    };
}
/** Whether `pid` still names the process `recorded` describes. */
function identify(pid, recorded, proc = '/proc') {
    if (recorded.startTicks === undefined || procStat(process.pid, proc) === undefined)
        return { kind: 'unchecked' };
    const boot = bootId(proc);
    if (recorded.bootId !== undefined && boot !== undefined && boot !== recorded.bootId)
        return { kind: 'rebooted' };
    const stat = procStat(pid, proc);
    if (stat === undefined || stat.state === 'Z')
        return { kind: 'gone' };
    if (stat.startTicks !== recorded.startTicks)
        return { kind: 'reused', startTicks: stat.startTicks, expectedTicks: recorded.startTicks };
    return { kind: 'same' };
}
/** This boot's id, or undefined without /proc. */
function bootId(proc = '/proc') {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim() || undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * The processes whose environment carries `RUN_MARKER=<marker>`, among those this user may read, that started no
 * earlier than `sinceTicks`. `seen` caches each answer by pid and start time: an environment is fixed at exec, and
 * reading every process's on every poll would cost the stop more than the stop itself.
 */
function markedProcesses(marker, sinceTicks, seen, proc = '/proc') {
    const needle = `\0${RUN_MARKER}=${marker}\0`;
    const found = [];
    for (const pid of procPids(proc)) {
        const stat = procStat(pid, proc);
        if (stat === undefined || stat.state === 'Z' || stat.startTicks < sinceTicks)
            continue;
        const key = `${pid}:${stat.startTicks}`;
        let marked = seen.get(key);
        if (marked === undefined) {
            marked = environHas(pid, needle, proc);
            seen.set(key, marked);
        }
        if (marked)
            found.push(pid);
    }
    return found;
}
function environHas(pid, needle, proc) {
    try {
        // latin1 maps each byte to one character: a byte search, whatever the encoding of the other variables
        return `\0${readFileSync(`${proc}/${pid}/environ`, 'latin1')}\0`.includes(needle);
    }
    catch {
        return false; // another user's process, or gone
    }
}
/** `roots` and every process descended from them, from the parent ids of /proc/<pid>/stat. */
function descendantsOf(roots, proc = '/proc') {
    const children = new Map();
    for (const p of (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procPids */ .bU)(proc)) {
        const parent = (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procStat */ .jW)(p, proc)?.ppid;
        if (parent !== undefined)
            children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const family = new Set(roots);
    const queue = [...family];
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


/***/ }),

/***/ 5568:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   p: () => (/* binding */ LogFollower)
/* harmony export */ });
/* unused harmony export MAX_LINE_CHARS */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _inputs_secrets_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3332);
/* harmony import */ var _runtime_file_kind_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2607);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9842);
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
/** The most looks that read what is left, at the end (`tail`, `rest`): a flooded log's backlog is not read whole. */
const REST_LOOKS = 20;
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
        const until = _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .ml.now() + WORK_MS_PER_POLL;
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
    /**
     * Every complete line still unread (within a bounded number of looks): what a server wrote before it exited is
     * all read before its exit is explained, not only what one look's budget reached.
     */
    rest() {
        const lines = [];
        for (let looks = 0; looks < REST_LOOKS && (looks === 0 || this.behind()); looks++)
            lines.push(...this.poll());
        return lines;
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
            const what = (0,_runtime_file_kind_js__WEBPACK_IMPORTED_MODULE_2__/* .notRegularFile */ .s)(stat);
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
        // one chunk at least, however late the look began (a loaded machine): every look moves on
        for (let first = true; this.offset < end && (first || _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .ml.now() < until); first = false) {
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
        // one chunk at least, however late the look began (a loaded machine): every look moves on
        for (let first = true; this.offset < end && lines < LINES_PER_POLL && (first || _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .ml.now() < until); first = false) {
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
        for (let looks = 0; looks < REST_LOOKS && this.behind(); looks++)
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
/* harmony import */ var _guard_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2686);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7707);
/* harmony import */ var _http_hosts_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2327);
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
const processTree = (proc, pid) => (0,_guard_js__WEBPACK_IMPORTED_MODULE_0__/* .descendantsOf */ .gO)([pid], proc);
/** The listening sockets on `port`; undefined when neither table can be read. */
function listeningSockets(proc, port) {
    let read = false;
    const found = [];
    for (const table of ['tcp', 'tcp6']) {
        let text;
        try {
            text = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync)(`${proc}/net/${table}`, 'utf8');
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
    for (const pid of (0,_proc_js__WEBPACK_IMPORTED_MODULE_2__/* .procPids */ .bU)(proc)) {
        let fds;
        try {
            fds = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readdirSync)(`${proc}/${pid}/fd`);
        }
        catch {
            continue; // another user's process, or gone
        }
        const held = new Set();
        for (const fd of fds) {
            let target;
            try {
                target = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readlinkSync)(`${proc}/${pid}/fd/${fd}`);
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
        const info = { pid, command: (0,_proc_js__WEBPACK_IMPORTED_MODULE_2__/* .commandLine */ .ay)(pid, proc) };
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
    const host = (0,_http_hosts_js__WEBPACK_IMPORTED_MODULE_3__/* .bareHost */ .n0)(url.hostname);
    const os = process.getBuiltinModule('node:os');
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase()));
    const local = (0,_http_hosts_js__WEBPACK_IMPORTED_MODULE_3__/* .isLoopback */ .U9)(url.hostname) ||
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
/* harmony export */   jW: () => (/* binding */ procStat),
/* harmony export */   mX: () => (/* binding */ procEnviron)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/** Reading Linux's /proc: one process's stat line, the process ids, a command line, an environment. Undefined or empty without it. */

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
/** The environment `pid` started with (`/proc/<pid>/environ`), or undefined when it cannot be read (gone, another user's, no /proc). */
function procEnviron(pid, proc = '/proc') {
    try {
        const entries = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`${proc}/${pid}/environ`, 'utf8')
            .split('\0')
            .filter((e) => e.includes('='));
        return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 5361:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Zd: () => (/* binding */ attachServer),
  rO: () => (/* binding */ newLogFile),
  um: () => (/* binding */ newRunMarker),
  QF: () => (/* binding */ resolvePid),
  NK: () => (/* binding */ serverEnv),
  UD: () => (/* binding */ startServer)
});

// UNUSED EXPORTS: processStartedAt

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/runtime/own-files.ts
var own_files = __webpack_require__(730);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
// EXTERNAL MODULE: ./src/inputs/input-error.ts
var input_error = __webpack_require__(9354);
// EXTERNAL MODULE: ./src/inputs/forms.ts
var inputs_forms = __webpack_require__(2198);
// EXTERNAL MODULE: ./src/inputs/variables.ts
var variables = __webpack_require__(6192);
// EXTERNAL MODULE: ./src/server/proc.ts
var proc = __webpack_require__(7707);
;// CONCATENATED MODULE: ./src/server/runner-internals.ts
/**
 * What the runner gives the action's own process and no `run:` step, kept from the server `start` launches: a
 * detached server outlives the step and may run code the job did not write (a model's own code, a plugin), so it
 * gets the step's environment as a `run:` step would, not the action's. From the runner's
 * `NodeScriptActionHandler` (actions/runner, src/Runner.Worker/Handlers/): the Actions runtime's URL and token
 * (the job's cache and artifact credential), the cache and results services, and the OIDC token request (which
 * mints cloud credentials where `id-token: write` is set). The list is docs/server.md's; a user who needs one
 * passes it explicitly, in the `env:` of a later `run:` step.
 */
/** Every variable whose name starts with one of these (`ACTIONS_CACHE_URL`, a cache proxy's `ACTIONS_RESULTS_URL_ORIGINAL`, \u2026). */
const RUNNER_PREFIXES = ['ACTIONS_RUNTIME_', 'ACTIONS_ID_TOKEN_', 'ACTIONS_CACHE_', 'ACTIONS_RESULTS_'];
/**
 * This step's own file commands: the action's outputs, the post step's state (the pid it stops), the next steps'
 * environment and PATH, the job summary. A server writing to them during the step would forge what the action
 * tells the runner.
 */
const STEP_FILES = ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'];
/** Whether the variable is one of the runner's internals (see the module comment). */
const isRunnerInternal = (name) => RUNNER_PREFIXES.some((p) => name.startsWith(p)) || STEP_FILES.includes(name);

;// CONCATENATED MODULE: ./src/server/process.ts
/**
 * The model server as a process: launched in the background by `start`, or found by `pid`; watched until it
 * exits; its start time and environment read from /proc (Linux). The gate leaves it running either way.
 */










const randomPart = () => process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
/**
 * Where the log goes with `start` and no `log-file`: a new file in the runner's temporary directory (the system's
 * outside a runner) named with this run's pid and a random part, `model-server-<pid>-<12 hex>.log`, created now
 * and exclusively, so that no other run's log is ever truncated and no link planted at a name we would use is
 * followed (a name taken: another random one).
 */
function newLogFile(env, pid = process.pid) {
    const dir = env.RUNNER_TEMP || (0,external_node_os_.tmpdir)();
    for (let n = 1;; n++) {
        // a random part: a name another user of a shared folder can guess is one they can plant a link at
        const path = (0,external_node_path_.join)(dir, `model-server-${pid}-${randomPart()}.log`);
        try {
            if (n === 1)
                (0,external_node_fs_.mkdirSync)(dir, { recursive: true });
            (0,external_node_fs_.closeSync)((0,own_files/* createOwn */.pP)(path));
            return path;
        }
        catch (e) {
            const code = e.code;
            if (code === 'EEXIST' && n < 10)
                continue;
            throw new input_error/* InputError */.dz('log-file', {
                problem: `none given, and no new log can be created in "${(0,runtime_text/* printable */.g$)(dir)}" (${code ?? e.message})`
            });
        }
    }
}
/**
 * The step's environment, without the action's own `INPUT_*` variables (which carry its api-key) and without the
 * runner's internals (`isRunnerInternal`: the tokens it gives the action's process and no `run:` step, and this
 * step's own file commands).
 */
function serverEnv(env) {
    return Object.fromEntries(Object.entries(env).filter((e) => e[1] !== undefined && !(0,variables/* isInputVariable */.lh)(e[0]) && !isRunnerInternal(e[0])));
}
/** A run marker for the server's environment: 128 random bits, so that no other process carries it by chance. */
const newRunMarker = () => process.getBuiltinModule('node:crypto').randomBytes(16).toString('hex');
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
        // never through a symbolic link: the server's output would go wherever it points
        fd = (0,own_files/* openOwn */.$U)(logFile, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_APPEND | external_node_fs_.constants.O_CREAT);
        logOffset = (0,external_node_fs_.fstatSync)(fd).size;
    }
    catch (e) {
        throw new input_error/* InputError */.dz('log-file', {
            value: (0,runtime_text/* printable */.g$)(logFile),
            problem: `cannot be written (${e.code ?? e.message})`
        });
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
            // read at once: the fork has happened, and an exec (bash running a lone command) keeps the pid and the time
            startTicks: (0,proc/* procStat */.jW)(pid)?.startTicks,
            exited,
            // Once the shell has exec'd the server (or if it has exited), what it was given is what it started with.
            environ: () => (0,proc/* procEnviron */.mX)(pid) ?? env,
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
    const first = (0,proc/* procStat */.jW)(pid);
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
        environ: () => (0,proc/* procEnviron */.mX)(pid),
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
        throw new input_error/* InputError */.dz('pid', {
            problem: `could not read "${(0,runtime_text/* printable */.g$)(spec.file)}" (${e.code ?? e.message})`,
            form: inputs_forms/* PID_FORM */.b5
        });
    }
    if (!/^\d+$/.test(text) || Number(text) < 1)
        throw new input_error/* InputError */.dz('pid', {
            value: (0,runtime_text/* printable */.g$)(spec.file),
            problem: `holds "${(0,runtime_text/* printable */.g$)(text)}", not a process id`
        });
    return Number(text);
}
/** Why the process is no longer running, or undefined while it runs. */
function gone(pid, startTicks) {
    const stat = (0,proc/* procStat */.jW)(pid);
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
/** When `pid` started, on the wall clock (ms since the epoch, to /proc's 10 ms); undefined when it is not running. */
function processStartedAt(pid, now = Date.now()) {
    const stat = procStat(pid);
    const ageMs = stat === undefined ? undefined : processAgeMs(stat.startTicks);
    return ageMs === undefined ? undefined : now - ageMs;
}


/***/ }),

/***/ 3325:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   m: () => (/* binding */ envDifferences),
/* harmony export */   s: () => (/* binding */ servingProcess)
/* harmony export */ });
/* harmony import */ var _port_owner_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8706);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7707);
/**
 * `env-report` of the process that serves: the one holding the URL's listening port, found among the launched
 * process and its descendants as the wrong-server check finds it (port-owner.ts). What `start` launched may not be
 * it: a shell running `env -u NCCL_IB_HCA vllm serve \u2026; echo exited` as its child, a wrapper script, `srun`: the
 * launched process then holds variables the server never got, and reporting those is false reassurance.
 */


/**
 * The first of the server's processes (`pid` and its descendants) that listens on one of `ports`, or undefined
 * when none does (not yet, no /proc, or a holder this user cannot see).
 */
function servingProcess(pid, ports, proc = '/proc') {
    for (const port of ports) {
        const o = (0,_port_owner_js__WEBPACK_IMPORTED_MODULE_0__/* .listenerOwnership */ .kA)(port, pid, { proc });
        if (o.kind === 'ours')
            return { pid: o.holder.pid, port, environ: (0,_proc_js__WEBPACK_IMPORTED_MODULE_1__/* .procEnviron */ .mX)(o.holder.pid, proc) };
    }
    return undefined;
}
/** `*` any run of characters, `?` one: as `env-report` reads its names. */
const glob = (pattern) => new RegExp(`^${pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')}$`);
/**
 * The variables `patterns` names whose value differs between the two environments (set in one and not the other
 * included), sorted. Compared on the real values, so that a masked credential that differs is named too (its
 * value is not shown anywhere).
 */
function envDifferences(patterns, a, b) {
    const globs = patterns.map(glob);
    const names = new Set([...Object.keys(a), ...Object.keys(b)].filter((n) => globs.some((g) => g.test(n))));
    return [...names].filter((n) => a[n] !== b[n]).sort();
}


/***/ }),

/***/ 3898:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  beforeStart: () => (/* binding */ beforeStart),
  gpuMemoryOf: () => (/* binding */ gpuMemoryOf),
  processServer: () => (/* binding */ processServer)
});

// EXTERNAL MODULE: ./src/server/env-report.ts
var env_report = __webpack_require__(5791);
// EXTERNAL MODULE: ./src/server/serving-env.ts
var serving_env = __webpack_require__(3325);
;// CONCATENATED MODULE: ./src/gpu/nvidia-smi.ts
/**
 * The GPUs and what holds their memory, from `nvidia-smi`: its CSV queries (formats as seen on an H200; see the
 * research notes), run within one time limit for the whole snapshot, ended at once by a signal (a cancelled job),
 * its output read up to 1 MiB. Where nvidia-smi is missing, fails, hangs, floods or is cancelled the answer is a
 * structured `unavailable`, never an error: a machine without a GPU is no reason to fail a wait.
 */
const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.used,memory.total', '--format=csv,noheader,nounits'];
const APPS_QUERY = ['--query-compute-apps=pid,process_name,used_memory,gpu_uuid', '--format=csv,noheader,nounits'];
/** What nvidia-smi may write per query: an H200 node's answer is a few hundred bytes; more is not its answer. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** The GPUs and the compute processes on them, in two calls of nvidia-smi, both within `timeoutMs`. */
async function gpuSnapshot(options = {}) {
    const until = performance.now() + (options.timeoutMs ?? 10_000);
    const left = () => Math.max(0, until - performance.now());
    const gpuRun = await runNvidiaSmi(GPU_QUERY, options, left());
    if (gpuRun.kind !== 'ok')
        return gpuRun;
    const appsRun = await runNvidiaSmi(APPS_QUERY, options, left());
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
/**
 * One query. nvidia-smi runs in a process group of its own, so that a timeout, a flood or a cancel kills it and
 * anything it started (a wrapper script's children would otherwise hold its output open); the answer is settled
 * then, without waiting for the pipes to close.
 */
function runNvidiaSmi(args, { env = process.env, command = 'nvidia-smi', signal }, timeoutMs) {
    return new Promise((resolve) => {
        if (signal?.aborted)
            return resolve({ kind: 'unavailable', why: 'cancelled' });
        if (timeoutMs <= 0)
            return resolve({ kind: 'unavailable', why: 'timeout' });
        // node:child_process is loaded only when nvidia-smi is asked: a wait without a GPU check starts without it.
        const { spawn } = process.getBuiltinModule('node:child_process');
        const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        const out = new BoundedText();
        const err = new BoundedText();
        let settled = false;
        const settle = (run) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            // the group, even once nvidia-smi itself has exited: what it started may still hold the pipes
            killGroup(child.pid);
            child.stdout.destroy();
            child.stderr.destroy();
            resolve(run);
        };
        const over = () => settle({ kind: 'unavailable', why: 'unreadable', detail: 'output over 1 MiB' });
        child.stdout.on('data', (d) => out.add(d) || over());
        child.stderr.on('data', (d) => err.add(d) || over());
        const timer = setTimeout(() => settle({ kind: 'unavailable', why: 'timeout' }), timeoutMs);
        const onAbort = () => settle({ kind: 'unavailable', why: 'cancelled' });
        signal?.addEventListener('abort', onAbort, { once: true });
        child.once('error', (e) => settle(e.code === 'ENOENT'
            ? { kind: 'unavailable', why: 'not-found' }
            : { kind: 'unavailable', why: 'failed', detail: e.message }));
        child.once('close', (code) => {
            const stdout = out.text();
            // nvidia-smi prints its own failure ("NVIDIA-SMI has failed because it couldn't communicate \u2026") on stdout
            if (code === 0)
                settle({ kind: 'ok', stdout });
            else
                settle({ kind: 'unavailable', why: 'failed', detail: firstLine(stdout.trim() === '' ? err.text() : stdout) });
        });
    });
}
/** Output kept as chunks up to MAX_OUTPUT_BYTES: a flood of hundreds of MB never becomes one string. */
class BoundedText {
    chunks = [];
    bytes = 0;
    /** False once the output is over the bound. */
    add(chunk) {
        this.bytes += chunk.length;
        if (this.bytes > MAX_OUTPUT_BYTES)
            return false;
        this.chunks.push(chunk);
        return true;
    }
    text() {
        return Buffer.concat(this.chunks).toString('utf8');
    }
}
function killGroup(pid) {
    if (pid === undefined)
        return;
    try {
        process.kill(-pid, 'SIGKILL');
    }
    catch {
        // gone already
    }
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

// EXTERNAL MODULE: ./src/server/log-follower.ts
var log_follower = __webpack_require__(5568);
// EXTERNAL MODULE: ./src/server/port-owner.ts
var port_owner = __webpack_require__(8706);
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
    for (const port of new Set(urls.map((u) => (0,port_owner/* localPort */.yv)(u, deps.hostName)))) {
        // a host elsewhere is probed as before: its port is not this machine's to check
        if (port === undefined)
            continue;
        const owner = (0,port_owner/* portOwner */.l)(port, { proc: deps.proc });
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
    const timeoutMs = Math.min(5_000, deps.gpuTimeoutMs ?? 5_000);
    const snapshot = await (deps.gpu ?? (() => gpuSnapshot({ env: deps.env, timeoutMs, signal: deps.signal })))();
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

// EXTERNAL MODULE: ./src/server/guard.ts
var guard = __webpack_require__(2686);
;// CONCATENATED MODULE: ./src/server/start-gpus.ts
/**
 * The GPUs a `start` command pins its server to, read from the command itself, for the pre-flight's `gpu-check`:
 * a fleet of one server per GPU starts each with its own `CUDA_VISIBLE_DEVICES=N` (or `docker run --gpus
 * device=N`), and each server's check is of its GPUs, not of the step's. Undefined: the command does not say (the
 * step's CUDA_VISIBLE_DEVICES, else every GPU, as before).
 */
/**
 * `CUDA_VISIBLE_DEVICES=\u2026` among the assignments that begin a command (after `env` and its options, or `export`).
 * Written so that each character can be read one way only: a `start` is an input of up to 64 KiB, and a pattern
 * that could split `A='' A='' \u2026` in two ways at each word would take exponential time on one that does not match.
 * An assignment's value stops at `;`, `&` or `|`, so that each try ends at the next command.
 */
const VALUE = `(?:'[^']*'|"[^"]*"|[^\\s'";&|])*`;
const ASSIGNED = new RegExp(`(?:^|[;&|(]\\s*|\\n\\s*)(?:export\\s+|env\\s+(?:-\\S+\\s+(?:[A-Za-z_][A-Za-z0-9_]*\\s+)?)*)?` +
    `(?:[A-Za-z_][A-Za-z0-9_]*=${VALUE}\\s+)*CUDA_VISIBLE_DEVICES=('[^']*'|"[^"]*"|[^\\s;&|]*)`);
/** `docker run \u2026 --gpus device=1,2` (also `--gpus=\u2026`, `'"device=1,2"'`), the engine's own way to pin a container. */
const DOCKER_GPUS = /\s--gpus(?:=|\s+)(?:'"?|"'?)?device=([0-9A-Za-z,-]+)/;
const unquoted = (text) => text.replace(/^(['"])(.*)\1$/, '$2');
function startGpus(start) {
    if (start === undefined)
        return undefined;
    const assigned = ASSIGNED.exec(start);
    if (assigned !== null)
        return unquoted(assigned[1]);
    const docker = DOCKER_GPUS.exec(start);
    return docker === null ? undefined : docker[1];
}
/** The environment the pre-flight reads the server's GPUs from: the step's, with the command's own pin where it has one. */
function withStartGpus(env, start) {
    const gpus = startGpus(start);
    return gpus === undefined ? env : { ...env, CUDA_VISIBLE_DEVICES: gpus };
}

// EXTERNAL MODULE: ./src/server/process.ts + 1 modules
var server_process = __webpack_require__(5361);
// EXTERNAL MODULE: ./src/report/lifecycle-report.ts
var lifecycle_report = __webpack_require__(7205);
// EXTERNAL MODULE: ./src/report/progress.ts
var progress = __webpack_require__(8991);
// EXTERNAL MODULE: ./src/wait/servers/who-answered.ts
var who_answered = __webpack_require__(3040);
;// CONCATENATED MODULE: ./src/wait/servers/process.ts
/**
 * The server as a process: launched by `start`, followed by `pid`, or known only by its `log-file`. The gate
 * imports this module then and only then: it is a chunk of the bundle of its own, so a plain wait (a URL, a model)
 * neither compiles nor holds it (about 40 KB of the action's own code; `npm run bench -- --only startup`).
 */












/** The process seam for these settings; a `pid` file is read now, so that a bad one is an input error and nothing runs. */
function processServer(settings, deps) {
    const pid = settings.pid === undefined ? undefined : (0,server_process/* resolvePid */.QF)(settings.pid);
    return {
        preflight: async () => (settings.start === undefined ? undefined : beforeStart(settings, deps)),
        launch: () => launched(settings, pid, deps),
        abandon: () => undefined
    };
}
/**
 * Before `start` launches anything: a port already held ends the wait at once (`port-busy`), naming the holder;
 * other processes on the server's GPUs are a warning, or with `gpu-check: fail` end it (`gpu-busy`).
 */
async function beforeStart(settings, deps) {
    const start = deps.startedAt ?? deps.clock.now();
    const found = await preflight(settings.portCheck ? settings.targets.map((t) => t.url) : [], settings.gpuCheck, {
        // the GPUs the command pins its server to (CUDA_VISIBLE_DEVICES=N \u2026, docker run --gpus device=N), else the step's
        env: withStartGpus(deps.env, settings.start),
        gpuTimeoutMs: timeLeft(settings, deps, start),
        signal: deps.cancel?.signal
    });
    const verdict = preflightVerdict(found, settings.gpuCheck);
    const gpu = found.gpu;
    if (gpu.kind === 'unavailable')
        deps.debug?.((0,lifecycle_report/* gpuUnavailableText */.gu)(gpu.why, gpu.detail));
    if (verdict.warnGpu && gpu.kind === 'busy')
        deps.warn((0,lifecycle_report/* gpuBusyText */.BN)(gpu.apps, gpu.gpus), 'gpu-busy');
    if (verdict.refuse === undefined)
        return undefined;
    const halt = {
        reason: verdict.refuse,
        detail: verdict.refuse === 'port-busy' && found.portBusy !== undefined
            ? (0,lifecycle_report/* portBusyText */.m)(found.portBusy)
            : gpu.kind === 'busy'
                ? (0,lifecycle_report/* gpuBusyText */.BN)(gpu.apps, gpu.gpus)
                : verdict.refuse
    };
    const results = settings.targets.map(({ url }) => ({
        ready: false,
        reason: halt.reason,
        elapsedMs: deps.clock.now() - start,
        attempts: 0,
        models: [],
        halt,
        timeline: [],
        url
    }));
    // no history either: a wait that started nothing says nothing of how long the server takes
    return { ...results[0], results };
}
/** Starts the server (`start`) or follows one started elsewhere (`pid`); without either, only its log. */
function launched(settings, pid, deps) {
    const logFile = settings.logFile ?? (settings.start !== undefined ? (0,server_process/* newLogFile */.rO)(deps.env) : undefined);
    const runMarker = settings.start === undefined ? undefined : (0,server_process/* newRunMarker */.um)();
    const server = launch(settings, pid, logFile, runMarker, deps);
    const facts = { pid: server?.pid, logFile };
    // what the job-end step stops by: this process, as it started, and whatever carries the marker
    if (runMarker !== undefined)
        Object.assign(facts, { startTicks: server?.startTicks, bootId: (0,guard/* bootId */.aW)(), runMarker });
    let log;
    return {
        facts,
        startedAt: server?.startedAt,
        watched: server,
        followLog: (earlier) => (log =
            logFile === undefined
                ? undefined
                : new log_follower/* LogFollower */.p(logFile, settings.logLines, {
                    fromStart: settings.start !== undefined,
                    skipBytes: server?.logOffset,
                    secrets: settings.secrets,
                    earlier
                })),
        // A server started elsewhere has long since started: its environment can be read at once, while it still runs.
        beforeWait: () => {
            if (pid !== undefined)
                reportEnvironment(settings, server, facts, deps);
        },
        // Ready means the watched server answered: an answer from anyone else is not its readiness, whether it came on
        // the URL's own port or at the end of a redirect (the origin that answered is the one checked).
        whoAnswered: (results) => {
            if (server === undefined || !settings.portCheck)
                return results;
            return (0,who_answered/* onlyWatchedAnswers */.K)(results, {
                family: () => (0,port_owner/* processTree */.WZ)('/proc', server.pid),
                foreign: (o, redirect) => (0,lifecycle_report/* wrongServerText */.eR)(o, server.pid, redirect),
                elsewhere: (redirect) => (0,lifecycle_report/* elsewhereText */.Kq)(redirect, server.pid),
                proxy: (o) => (0,lifecycle_report/* dockerProxyText */.y2)(o, server.pid)
            }, deps);
        },
        afterWait: async (ready, readyAt) => {
            if (ready && server?.startedAt !== undefined)
                facts.startupMs = readyAt - server.startedAt;
            if (ready && server !== undefined)
                facts.gpuMemoryMiB = await gpuMemoryOf(settings, () => (0,port_owner/* processTree */.WZ)('/proc', server.pid), deps);
            reportEnvironment(settings, server, facts, deps, pid !== undefined);
            if (!ready && log !== undefined && settings.logLines > 0) {
                facts.logTail = log.tail();
                if (facts.logTail === undefined)
                    deps.log(progress/* gateLines */.HN.noLog(log.path));
            }
        },
        release: () => server?.release()
    };
}
function launch(settings, pid, logFile, runMarker, deps) {
    if (settings.start !== undefined && logFile !== undefined) {
        // tagged, so that every process it starts is known as its own, also one that leaves its process group
        const env = { ...(0,server_process/* serverEnv */.NK)(deps.env), ...(runMarker === undefined ? {} : { [guard/* RUN_MARKER */.xO]: runMarker }) };
        const server = (0,server_process/* startServer */.UD)(settings.start, logFile, env, deps.clock);
        deps.log(progress/* gateLines */.HN.started(server.pid, logFile));
        return server;
    }
    if (pid === undefined)
        return undefined;
    const server = (0,server_process/* attachServer */.Zd)(pid, deps.clock);
    deps.log(progress/* gateLines */.HN.watching(pid, logFile));
    return server;
}
/** The time left before the wait's deadline (`timeout` from `start`), in ms. */
const timeLeft = (settings, deps, start) => Math.max(0, settings.timeoutMs - (deps.clock.now() - start));
/**
 * The GPU memory the server's processes (`family`, read once nvidia-smi has answered) hold, or undefined without a
 * reading. Within the wait's deadline, and ended by a cancel: a hung or slow nvidia-smi holds no step past its
 * timeout. The container seam's too.
 */
async function gpuMemoryOf(settings, family, deps) {
    const timeoutMs = Math.min(5_000, timeLeft(settings, deps, deps.startedAt ?? deps.clock.now()));
    const snapshot = await gpuSnapshot({ env: deps.env, timeoutMs, signal: deps.cancel?.signal });
    if (snapshot.kind === 'unavailable') {
        deps.debug?.((0,lifecycle_report/* gpuUnavailableText */.gu)(snapshot.why, snapshot.detail));
        return undefined;
    }
    return memoryHeldBy(snapshot, family()).mib;
}
/**
 * `env-report`, of the process that serves: the server's process that listens on the URL's port where one does,
 * beside the launched one's where that is another process; else the launched (or watched) one's. Said once, or
 * again after the wait for a process watched by `pid` whose listener has turned out to be another process.
 */
function reportEnvironment(settings, server, facts, deps, again = false) {
    if (settings.envReport.length === 0 || server === undefined)
        return;
    const ports = [...new Set(settings.targets.flatMap((t) => (0,port_owner/* localPort */.yv)(t.url) ?? []))];
    const serving = (0,serving_env/* servingProcess */.s)(server.pid, ports);
    const listener = serving?.pid === server.pid ? undefined : serving;
    if (again && (listener === undefined || listener.pid === facts.envPid))
        return;
    const launched = server.environ();
    const environ = listener === undefined ? launched : listener.environ;
    Object.assign(facts, {
        env: environ === undefined ? undefined : (0,env_report/* envReport */.q)(settings.envReport, environ, settings.secrets),
        envUnreadable: environ === undefined ? true : undefined,
        envPid: serving?.pid ?? server.pid,
        envPort: serving?.port,
        launchedEnv: listener === undefined
            ? undefined
            : {
                pid: server.pid,
                env: launched === undefined ? undefined : (0,env_report/* envReport */.q)(settings.envReport, launched, settings.secrets),
                differs: launched === undefined || environ === undefined
                    ? []
                    : (0,serving_env/* envDifferences */.m)(settings.envReport, launched, environ)
            }
    });
    progress/* gateLines */.HN.environment(facts).forEach((line) => deps.log(line));
}


/***/ }),

/***/ 3040:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ onlyWatchedAnswers)
/* harmony export */ });
/* harmony import */ var _server_port_owner_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8706);
/**
 * Readiness from the watched server only: a ready answer counts when one of the server's processes holds the
 * listening socket of the origin that finally answered, the URL's own or the end of its redirects (issue 26 item
 * 8). Both seams that watch a server judge their results here, each with its own processes (a process and its
 * descendants, a container's host pids) and its own words.
 */

/**
 * The results, each ready one whose answer came from someone other than `watched` made `wrong-server`: the origin
 * that answered (`answeredUrl`) judged once per endpoint origin and answered origin.
 */
function onlyWatchedAnswers(results, watched, deps) {
    const verdicts = new Map();
    return results.map((r) => {
        if (!r.ready)
            return r;
        const answered = answeredUrl(r);
        const key = `${r.url.origin} ${answered.origin}`;
        if (!verdicts.has(key))
            verdicts.set(key, foreignAnswer(r.url, answered, watched, deps));
        const halt = verdicts.get(key);
        return halt === undefined ? r : { ...r, ready: false, reason: 'wrong-server', halt };
    });
}
/** The URL whose answer made `r` ready: the last one a redirect led to, else the endpoint's own. */
function answeredUrl(r) {
    const to = r.last?.answeredBy;
    if (to === undefined)
        return r.url;
    try {
        return new URL(to);
    }
    catch {
        return r.url;
    }
}
/**
 * Whether the answer at `answered` (the endpoint `url`, or where its redirects led) came from someone other than
 * the watched server, as the halt that ends the wait: its local port's listening socket held by other processes
 * only (Linux: the socket's inode among their file descriptors), or, from a local endpoint, another machine
 * altogether. Unknown (no /proc), nothing listening, a holder this user cannot see, or a docker-proxy (a
 * container's published port) is not held against the server.
 */
function foreignAnswer(url, answered, watched, deps) {
    const redirect = answered.origin === url.origin ? undefined : { from: url, to: answered };
    const port = (0,_server_port_owner_js__WEBPACK_IMPORTED_MODULE_0__/* .localPort */ .yv)(answered);
    if (port === undefined) {
        if (redirect === undefined || (0,_server_port_owner_js__WEBPACK_IMPORTED_MODULE_0__/* .localPort */ .yv)(url) === undefined)
            return undefined;
        return { reason: 'wrong-server', detail: watched.elsewhere(redirect) };
    }
    const owner = (0,_server_port_owner_js__WEBPACK_IMPORTED_MODULE_0__/* .portOwner */ .l)(port);
    if (owner.kind !== 'listening')
        return undefined;
    const family = watched.family();
    if (owner.listeners.some((l) => l.holders.some((h) => family.has(h.pid))))
        return undefined;
    const o = { kind: 'foreign', port, listeners: owner.listeners };
    const holders = o.listeners.flatMap((l) => l.holders);
    if (holders.length === 0)
        return undefined;
    if (holders.every((h) => (0,_server_port_owner_js__WEBPACK_IMPORTED_MODULE_0__/* .isDockerProxy */ .f_)(h.command))) {
        deps.debug?.(watched.proxy(o));
        return undefined;
    }
    return { reason: 'wrong-server', detail: watched.foreign(o, redirect) };
}


/***/ })

};
