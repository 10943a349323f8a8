export const id = 910;
export const ids = [910];
export const modules = {

/***/ 6910:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  containerServer: () => (/* binding */ containerServer)
});

// EXTERNAL MODULE: ./src/inputs/input-error.ts
var input_error = __webpack_require__(9354);
// EXTERNAL MODULE: ./src/inputs/forms.ts
var inputs_forms = __webpack_require__(2198);
// EXTERNAL MODULE: ./src/http/undici-parts.ts
var undici_parts = __webpack_require__(7101);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
;// CONCATENATED MODULE: ./src/server/docker.ts
/**
 * A small client of the Docker Engine API (and Podman's Docker-compatible one) over its unix socket, with the
 * project's HTTP client: `DOCKER_HOST=unix://\u2026`, else /var/run/docker.sock. Every request is bounded (its own
 * timeout, and the caller's signal: the wait's deadline and cancellation), and answers data, never words.
 */



/** One request's bound unless the caller gives another: the engine answers an inspect in milliseconds. */
const REQUEST_MS = 5_000;
/** An answer's body is read up to this much (an inspect is a few KB; `top` of a large container tens of KB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The engine's socket from DOCKER_HOST (`unix://` only: a TCP engine would be another host's), else the default. */
function dockerSocket(env) {
    const host = env.DOCKER_HOST?.trim();
    if (host === undefined || host === '')
        return '/var/run/docker.sock';
    if (host.startsWith('unix://') && host.length > 'unix://'.length)
        return host.slice('unix://'.length);
    throw new input_error/* InputError */.dz('container', {
        problem: `needs the Docker engine on a unix socket, and DOCKER_HOST is "${(0,runtime_text/* printable */.g$)(host)}"`,
        form: 'DOCKER_HOST=unix:///path/to/docker.sock, or no DOCKER_HOST for /var/run/docker.sock'
    });
}
class DockerEngine {
    socketPath;
    agent;
    /** Whether the engine is Podman (its answers carry `Libpod-Api-Version`); undefined until one has come. */
    podman;
    constructor(socketPath) {
        this.socketPath = socketPath;
        // the job-end step sends no other request: the dispatchers' API is set up here too
        (0,undici_parts/* setUpUndici */.St)();
        this.agent = new undici_parts/* Agent */.g6({ connect: { socketPath }, pipelining: 0 });
    }
    /** Whether an engine answers, or why not (`ENOENT`, `ECONNREFUSED`, an HTTP status). */
    async ping(call = {}) {
        try {
            const r = await this.send('GET', '/_ping', call);
            return r.status === 200 ? undefined : `it answered HTTP ${r.status}`;
        }
        catch (e) {
            return errorCode(e);
        }
    }
    /** The container's state, or undefined when the engine knows no such container. */
    async inspect(id, call = {}) {
        const r = await this.send('GET', `/containers/${encodeURIComponent(id)}/json`, call);
        if (r.status === 404 || gone(r))
            return undefined;
        if (r.status !== 200)
            throw new Error(`inspect answered HTTP ${r.status}`);
        return containerState(JSON.parse(r.body));
    }
    /**
     * The host pids of the container's processes (`GET /containers/{id}/top`); empty once it is not running. Docker
     * runs the host's `ps` with `ps_args` over the container's processes: host pids. Podman reads `ps_args` as its
     * own descriptors (`pid` is the container's pid namespace, `hpid` the host's) and runs anything else (`-eo pid`)
     * as `ps` INSIDE the container: the container's pids (1, \u2026), or an empty answer where the image has no `ps`.
     */
    async pids(id, call = {}) {
        if (this.podman === undefined)
            await this.ping(call);
        const [args, title] = this.podman === true ? ['hpid', 'HPID'] : ['-eo%20pid', 'PID'];
        const r = await this.send('GET', `/containers/${encodeURIComponent(id)}/top?ps_args=${args}`, call);
        if (r.status !== 200)
            return [];
        let top;
        try {
            top = JSON.parse(r.body);
        }
        catch {
            return [];
        }
        const column = (top.Titles ?? []).findIndex((t) => t.trim().toUpperCase() === title);
        if (column < 0)
            return [];
        return (top.Processes ?? []).map((p) => Number(p[column])).filter((p) => Number.isInteger(p) && p > 0);
    }
    /** `docker stop`: SIGTERM (or the image's StopSignal), SIGKILL after `seconds`; true once it is not running. */
    async stop(id, seconds, call = {}) {
        const r = await this.send('POST', `/containers/${encodeURIComponent(id)}/stop?t=${Math.ceil(seconds)}`, {
            ...call,
            // the engine answers once the container has stopped: up to `seconds`, and the SIGKILL after
            timeoutMs: call.timeoutMs ?? seconds * 1000 + 15_000
        });
        // 304: it was not running
        return r.status === 204 || r.status === 304;
    }
    /**
     * Follows the container's output from its start (`follow`), handing each chunk to `out` as it comes: the
     * multiplexed frames demultiplexed when it has no TTY. Settles when the stream ends (the container exited) or
     * the signal aborts; never throws.
     */
    async follow(id, tty, out, signal) {
        const demux = tty ? out : demultiplexer(out);
        try {
            const { statusCode, body } = await (0,undici_parts/* request */.Em)(this.agent, {
                method: 'GET',
                origin: 'http://docker',
                path: `/containers/${encodeURIComponent(id)}/logs?follow=1&stdout=1&stderr=1`,
                signal,
                headersTimeout: REQUEST_MS,
                bodyTimeout: 0
            });
            if (statusCode !== 200)
                return void (await body.dump().catch(() => undefined));
            for await (const chunk of body)
                demux(chunk);
        }
        catch {
            // aborted, or the engine went away: the state poll tells what became of the container
        }
    }
    close() {
        void this.agent.close().catch(() => undefined);
    }
    async send(method, path, call) {
        const timeout = AbortSignal.timeout(call.timeoutMs ?? REQUEST_MS);
        const signal = call.signal === undefined ? timeout : AbortSignal.any([timeout, call.signal]);
        const { statusCode, headers, body } = await (0,undici_parts/* request */.Em)(this.agent, { method, origin: 'http://docker', path, signal });
        this.podman = headers['libpod-api-version'] !== undefined;
        const chunks = [];
        let size = 0;
        for await (const chunk of body) {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) {
                body.destroy();
                throw new Error(`the engine's answer to ${path} passed ${MAX_BODY_BYTES} bytes`);
            }
            chunks.push(chunk);
        }
        return { status: statusCode, body: Buffer.concat(chunks).toString('utf8') };
    }
}
function containerState(c) {
    const s = c.State ?? {};
    const started = s.StartedAt === undefined ? NaN : Date.parse(s.StartedAt);
    const checks = s.Health?.Log ?? [];
    // no HEALTHCHECK: Docker has no Health (or `none`), Podman a Health whose Status is ""
    const health = s.Health?.Status;
    return {
        id: c.Id ?? '',
        name: (c.Name ?? '').replace(/^\//, ''),
        running: s.Running === true,
        status: s.Status ?? 'unknown',
        pid: s.Pid ?? 0,
        exitCode: s.ExitCode ?? 0,
        oomKilled: s.OOMKilled === true,
        error: s.Error ?? '',
        // the engine's zero time (0001-01-01) for a container that never started
        startedAtMs: Number.isFinite(started) && started > 0 ? started : undefined,
        health: health === undefined || health === '' || health === 'none' ? undefined : health,
        healthLog: checks.at(-1)?.Output?.trim().slice(0, 500),
        tty: c.Config?.Tty === true,
        env: c.Config?.Env ?? [],
        autoRemove: c.HostConfig?.AutoRemove === true
    };
}
/**
 * The logs of a container without a TTY: frames of an 8-byte header (the stream: 1 stdout, 2 stderr; three zero
 * bytes; the payload's length, big-endian) and the payload. Frames split across chunks are put back together.
 */
function demultiplexer(out) {
    let held = Buffer.alloc(0);
    return (chunk) => {
        held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
        let at = 0;
        while (held.length - at >= 8) {
            const size = held.readUInt32BE(at + 4);
            if (held.length - at - 8 < size)
                break;
            out(held.subarray(at + 8, at + 8 + size));
            at += 8 + size;
        }
        held = held.subarray(at);
    };
}
/**
 * Podman, in the moment it removes a container (`run --rm`), answers its inspect with HTTP 500 and
 * `{"cause":"no such container","message":"container \u2026 does not exist in database: no such container"}`.
 */
function gone(r) {
    if (r.status !== 500)
        return false;
    try {
        return JSON.parse(r.body).cause === 'no such container';
    }
    catch {
        return false;
    }
}
/** `ENOENT`, `ECONNREFUSED`, `EACCES`, or the message. */
function errorCode(e) {
    const err = e;
    return err.cause?.code ?? err.code ?? err.message;
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/runtime/own-files.ts
var own_files = __webpack_require__(730);
// EXTERNAL MODULE: ./src/server/proc.ts
var server_proc = __webpack_require__(7707);
// EXTERNAL MODULE: ./src/server/port-owner.ts
var port_owner = __webpack_require__(8706);
// EXTERNAL MODULE: ./src/server/log-follower.ts
var log_follower = __webpack_require__(5568);
;// CONCATENATED MODULE: ./src/server/container.ts
/**
 * The model server as a container (`container`): found on the Docker engine (at once, or once `start` has
 * created it), its output followed through the engine from the container's start and appended to a log file the
 * gate follows like any other, its state polled so that an exit (its code, OOMKilled, the engine's error) or an
 * `unhealthy` HEALTHCHECK ends the wait within a poll. The container keeps running when the wait is over.
 */








/** How often the container's state is read: an exit is seen within this, plus one inspect (milliseconds). */
const STATE_POLL_MS = 250;
/** With `start`: how long after its process exits (`docker run -d` exits at once) the container may still appear. */
const APPEAR_AFTER_START_MS = 5_000;
/** Opens the log the container's output is appended to; before anything starts, so that a bad one runs nothing. */
function openContainerLog(path) {
    try {
        (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path), { recursive: true });
        // never through a symbolic link (nor into a FIFO): the container's output would go wherever it points
        const fd = (0,own_files/* openOwn */.$U)(path, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_APPEND | external_node_fs_.constants.O_CREAT);
        return { fd, offset: (0,external_node_fs_.fstatSync)(fd).size };
    }
    catch (e) {
        throw new input_error/* InputError */.dz('log-file', {
            value: (0,runtime_text/* printable */.g$)(path),
            problem: `cannot be written (${e.code ?? e.message})`
        });
    }
}
/** Watches the container `ref`; see the module comment. */
function watchContainer(o) {
    const { engine, clock } = o;
    const proc = o.proc ?? '/proc';
    const stopped = new AbortController();
    const signal = stopped.signal;
    let state = o.initial;
    const topPids = new Set();
    let resolveExit = () => undefined;
    const exited = new Promise((resolve) => (resolveExit = resolve));
    let ended = false;
    const end = (how) => {
        if (ended)
            return;
        ended = true;
        resolveExit(how);
    };
    let starterExit;
    void o.starter?.exited.then((how) => (starterExit = how));
    const starterFailed = () => starterExit !== undefined && !/code 0\b/.test(starterExit);
    /** `exited with code 125<when>: <its last line>` */
    const starterSaid = (when = '') => {
        const last = o.starterLog === undefined ? undefined : new log_follower/* LogFollower */.p(o.starterLog, 1).tail()?.at(-1);
        return `${(starterExit ?? '').replace(/ \(.*\)$/, '')}${when}${last === undefined ? '' : `: ${last.text}`}`;
    };
    const find = async () => {
        if (state !== undefined)
            return state;
        let starterGoneAt;
        while (!signal.aborted) {
            const found = await engine.inspect(o.ref, { signal }).catch(() => undefined);
            if (found !== undefined)
                return (state = found);
            if (starterExit !== undefined) {
                starterGoneAt ??= clock.now();
                // `docker run` that failed (no such image, a name in use) never creates it
                if (starterFailed() || clock.now() - starterGoneAt > APPEAR_AFTER_START_MS) {
                    end(`was never created: "start" ${starterSaid(' first')}`);
                    return undefined;
                }
            }
            await clock.sleep(100, signal);
        }
        return undefined;
    };
    const { fd, offset: logOffset } = o.log;
    let fdOpen = true;
    const write = (chunk) => {
        if (fdOpen)
            (0,external_node_fs_.writeSync)(fd, chunk);
    };
    const closeLog = () => {
        if (fdOpen)
            (0,external_node_fs_.closeSync)(fd);
        fdOpen = false;
    };
    const why = (s) => s.status === 'created'
        ? `could not be started (exit code ${s.exitCode}${s.error ? `; the engine: ${s.error}` : ''})`
        : s.oomKilled
            ? `was killed for lack of memory (OOMKilled, exit code ${s.exitCode})`
            : `exited with code ${s.exitCode}${s.error ? ` (the engine: ${s.error})` : ''}`;
    let health = state?.health;
    let lastTop = -Infinity;
    /** Why the watch ends with the container in this state (it exited, it is unhealthy); undefined while it serves. */
    const ending = (now) => {
        // `created` and no more: not started yet, unless the runtime failed to start it (an error, an exit code)
        const neverStarted = now.status === 'created' && now.error === '' && now.exitCode === 0;
        if (!now.running && !neverStarted)
            return why(now);
        // Podman leaves one its runtime could not start `created`, with exit code 0 and no error: the client that
        // was to start it (`podman run` in `start`) failing says it never will be
        if (neverStarted && starterFailed())
            return `could not be started ("start" ${starterSaid()})`;
        if (now.health === health || now.health === undefined)
            return undefined;
        health = now.health;
        o.onHealth?.(now.health, now);
        if (now.health === 'unhealthy')
            return `is unhealthy (its HEALTHCHECK${now.healthLog ? `: ${now.healthLog}` : ' failed'})`;
        return undefined;
    };
    /** Reads the state once: false once the watch has ended. */
    const check = async () => {
        const now = await engine.inspect(o.ref, { signal }).catch(() => 'unreadable');
        if (signal.aborted || ended)
            return false;
        // an engine that does not answer this once says nothing of the container: read again
        if (now === 'unreadable')
            return true;
        const over = now === undefined ? 'was removed' : ending((state = now));
        if (over !== undefined) {
            end(over);
            return false;
        }
        if (clock.now() - lastTop >= 1_000) {
            lastTop = clock.now();
            for (const p of await engine.pids(o.ref, { signal }).catch(() => []))
                topPids.add(p);
        }
        return true;
    };
    const poll = async () => {
        while (await check())
            await clock.sleep(STATE_POLL_MS, signal);
    };
    /**
     * The log stream ends when the container does: its state is read at once then, not a poll later. Podman ends it
     * early for a container not yet running (none of its output, or what it has written so far; Docker's waits for
     * its start): followed again while it runs, each stream from its start, the part already written skipped.
     */
    const follow = async (s) => {
        let written = 0;
        for (;;) {
            let at = 0;
            const rest = (chunk) => {
                const skip = Math.min(chunk.length, Math.max(0, written - at));
                at += chunk.length;
                if (skip === chunk.length)
                    return;
                write(skip === 0 ? chunk : chunk.subarray(skip));
                written = at;
            };
            await engine.follow(s.id, s.tty, rest, signal);
            if (!(await check()))
                return;
            await clock.sleep(STATE_POLL_MS, signal);
        }
    };
    const found = (async () => {
        const s = await find();
        if (s === undefined || signal.aborted)
            return s;
        void follow(s);
        void poll();
        return s;
    })();
    return {
        get pid() {
            return state?.pid ?? 0;
        },
        label: `the container ${o.ref}`,
        logOffset,
        exited,
        state: () => state,
        found,
        family: () => {
            const main = state?.pid ?? 0;
            return new Set([...(main > 0 ? (0,port_owner/* processTree */.WZ)(proc, main) : []), ...topPids]);
        },
        // the serving process's own environment where /proc shows it, else the one the container was created with
        environ: () => {
            const s = state;
            if (s === undefined)
                return undefined;
            return ((s.pid > 0 ? (0,server_proc/* procEnviron */.mX)(s.pid) : undefined) ??
                Object.fromEntries(s.env.filter((e) => e.includes('=')).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])));
        },
        release: () => {
            stopped.abort();
            o.starter?.release();
            engine.close();
            closeLog();
        }
    };
}
/** The container's start on the clock's scale, from the engine's wall-clock StartedAt. */
const startedOnClock = (s, clock) => s?.startedAtMs === undefined ? undefined : clock.now() - Math.max(0, clock.wallMs() - s.startedAtMs);

// EXTERNAL MODULE: ./src/server/env-report.ts
var env_report = __webpack_require__(5791);
// EXTERNAL MODULE: ./src/server/serving-env.ts
var serving_env = __webpack_require__(3325);
// EXTERNAL MODULE: ./src/server/process.ts + 1 modules
var process = __webpack_require__(5361);
// EXTERNAL MODULE: ./src/report/lifecycle-report.ts
var lifecycle_report = __webpack_require__(7205);
;// CONCATENATED MODULE: ./src/report/container-report.ts
/** The words of a server that is a container (`container`): its watch, its health, who answers instead of it. */

const containerLines = {
    started: (pid, starterLog) => `Ran "start" (pid ${pid}); its own output goes to ${starterLog}`,
    watching: (ref, id, logFile) => `Watching the container ${ref}${id === undefined || id.startsWith(ref) ? '' : ` (${id.slice(0, 12)})`}` +
        `${id === undefined ? ' once the engine has it' : ''}; its output, from the engine, goes to ${logFile}`,
    health: (ref, health) => `The container ${ref} is ${health} (its HEALTHCHECK)`,
    wrongServer: (ref, port, holders, redirect) => `${redirect === undefined ? '' : `${(0,lifecycle_report/* redirectText */.UC)(redirect)}: `}Port ${port} is answered by ${holders.map((h) => `pid ${h.pid} (${h.command})`).join(', ')}, not by a ` +
        `process of the container ${ref} nor a docker-proxy of its published port: another server holds the port, or ` +
        'the container listens elsewhere. Its answers say nothing about the server being waited for',
    /** A local endpoint redirected to another machine: not the container's answer. */
    elsewhere: (ref, redirect) => `${(0,lifecycle_report/* redirectText */.UC)(redirect)}, which is not this machine: its answers say nothing about the container ${ref}. ` +
        'Give the URL the server itself answers on, or set "port-check: false" for a proxy'
};

// EXTERNAL MODULE: ./src/report/progress.ts
var progress = __webpack_require__(8991);
// EXTERNAL MODULE: ./src/wait/servers/process.ts + 3 modules
var servers_process = __webpack_require__(3898);
// EXTERNAL MODULE: ./src/wait/servers/who-answered.ts
var who_answered = __webpack_require__(3040);
;// CONCATENATED MODULE: ./src/wait/servers/container.ts
/**
 * The server as a container (`container`), whether `start` runs it (`docker run`, in the foreground or with `-d`)
 * or it ran before the step (a `services:` container, an earlier `docker run -d`). The container, not the `docker`
 * client, is the server: its exit, its output (through the engine), its processes (host pids: who answers, the
 * GPU memory), its environment and its start. Imported by the gate only then, as process.ts is.
 */
















function containerServer(settings, deps) {
    const ref = settings.container;
    const socket = dockerSocket(deps.env);
    let engine;
    let initial;
    return {
        preflight: async () => {
            engine = new DockerEngine(socket);
            // within the wait's own deadline and the job's cancellation, as every request
            const call = { timeoutMs: Math.min(5_000, settings.timeoutMs), signal: deps.cancel?.signal };
            const why = await engine.ping(call);
            if (why !== undefined) {
                engine.close();
                throw new input_error/* InputError */.dz('container', {
                    problem: `needs a Docker engine, and none answers at "${(0,runtime_text/* printable */.g$)(socket)}" (${(0,runtime_text/* printable */.g$)(why)})`,
                    form: 'a running engine (Docker, or Podman\'s "podman system service"), at DOCKER_HOST=unix://\u2026 or /var/run/docker.sock'
                });
            }
            if (settings.start !== undefined)
                return (0,servers_process.beforeStart)(settings, deps);
            initial = await engine.inspect(ref, call);
            if (initial === undefined) {
                engine.close();
                throw new input_error/* InputError */.dz('container', {
                    value: (0,runtime_text/* printable */.g$)(ref),
                    problem: `is no container of the engine at "${(0,runtime_text/* printable */.g$)(socket)}" (start it before this step, or with "start")`,
                    form: inputs_forms/* CONTAINER_FORM */.fy
                });
            }
            return undefined;
        },
        launch: () => launched(settings, engine, initial, deps),
        abandon: () => engine?.close()
    };
}
function launched(settings, engine, initial, deps) {
    const ref = settings.container;
    const logFile = settings.logFile ?? (0,process/* newLogFile */.rO)(deps.env);
    const containerLog = openContainerLog(logFile);
    // `start`'s own output (the client's: a pull, an error before the container exists) apart from the container's
    const starterLog = settings.start === undefined ? undefined : (0,process/* newLogFile */.rO)(deps.env);
    const starter = settings.start === undefined || starterLog === undefined
        ? undefined
        : (0,process/* startServer */.UD)(settings.start, starterLog, (0,process/* serverEnv */.NK)(deps.env), deps.clock);
    const container = watchContainer({
        engine,
        ref,
        initial,
        starter,
        starterLog,
        log: containerLog,
        clock: deps.clock,
        onHealth: (health) => deps.log(containerLines.health(ref, health))
    });
    if (starter !== undefined && starterLog !== undefined)
        deps.log(containerLines.started(starter.pid, starterLog));
    deps.log(containerLines.watching(ref, initial?.id, logFile));
    const facts = {
        pid: initial?.pid,
        logFile,
        container: initial?.id ?? ref,
        dockerSocket: engine.socketPath
    };
    void container.found.then((s) => {
        if (s === undefined)
            return;
        if (s.pid > 0)
            facts.pid = s.pid;
        facts.container = s.id;
    });
    let log;
    return {
        facts,
        // a container that ran before the step started when the engine says; one `start` runs, about when it did
        startedAt: startedOnClock(initial, deps.clock) ?? starter?.startedAt,
        watched: container,
        followLog: (earlier) => (log = new log_follower/* LogFollower */.p(logFile, settings.logLines, {
            // the engine hands over the container's output from its start: every line of it is the startup's
            fromStart: true,
            skipBytes: container.logOffset,
            secrets: settings.secrets,
            earlier
        })),
        beforeWait: () => {
            if (initial !== undefined)
                reportEnvironment(settings, container, facts, deps);
        },
        // as for a process: the origin that finally answered, the URL's own or the end of its redirects, is checked
        whoAnswered: answeredBy(settings, container, ref, deps),
        afterWait: async (ready, readyAt) => {
            // found while `created` (no process yet), it has one now
            const now = container.state();
            if (now !== undefined && now.pid > 0)
                facts.pid = now.pid;
            if (now !== undefined)
                facts.container = now.id;
            const started = startedOnClock(now, deps.clock);
            if (ready && started !== undefined)
                facts.startupMs = Math.max(0, readyAt - started);
            if (ready)
                facts.gpuMemoryMiB = await (0,servers_process.gpuMemoryOf)(settings, () => container.family(), deps);
            if (initial === undefined)
                reportEnvironment(settings, container, facts, deps);
            if (!ready && settings.logLines > 0 && log !== undefined) {
                facts.logTail = log.tail();
                if (facts.logTail === undefined)
                    deps.log(progress/* gateLines */.HN.noLog(log.path));
            }
        },
        release: () => container.release()
    };
}
/** Ready answers that came from the container's own processes (or its docker-proxy); any other is wrong-server. */
function answeredBy(settings, container, ref, deps) {
    return (results) => {
        if (!settings.portCheck)
            return results;
        return (0,who_answered/* onlyWatchedAnswers */.K)(results, {
            family: () => container.family(),
            foreign: (o, redirect) => containerLines.wrongServer(ref, o.port, o.listeners.flatMap((l) => l.holders), redirect),
            elsewhere: (redirect) => containerLines.elsewhere(ref, redirect),
            proxy: (o) => (0,lifecycle_report/* dockerProxyText */.y2)(o, container.pid)
        }, deps);
    };
}
/**
 * `env-report`, of the process that serves: the container's process that listens on the URL's port (host
 * networking: its socket is this machine's to see) where that is another process than its main one (`sh -c
 * "unset NCCL_IB_HCA; vllm serve \u2026"`, an entrypoint script), beside the main process's values; else the main
 * process's (its /proc, else the environment the container was created with).
 */
function reportEnvironment(settings, container, facts, deps) {
    if (settings.envReport.length === 0)
        return;
    const main = container.environ();
    const serving = listenerOf(settings, container);
    const environ = serving === undefined ? main : serving.environ;
    Object.assign(facts, {
        env: environ === undefined ? undefined : (0,env_report/* envReport */.q)(settings.envReport, environ, settings.secrets),
        envUnreadable: environ === undefined ? true : undefined,
        envPid: serving?.pid,
        envPort: serving?.port,
        launchedEnv: serving === undefined
            ? undefined
            : {
                pid: container.pid,
                env: main === undefined ? undefined : (0,env_report/* envReport */.q)(settings.envReport, main, settings.secrets),
                differs: main === undefined || serving.environ === undefined
                    ? []
                    : (0,serving_env/* envDifferences */.m)(settings.envReport, main, serving.environ)
            }
    });
    progress/* gateLines */.HN.environment(facts).forEach((line) => deps.log(line));
}
/** The container's process that listens on one of the URLs' local ports, when it is not its main process. */
function listenerOf(settings, container) {
    const family = container.family();
    for (const port of new Set(settings.targets.flatMap((t) => (0,port_owner/* localPort */.yv)(t.url) ?? []))) {
        const owner = (0,port_owner/* portOwner */.l)(port);
        if (owner.kind !== 'listening')
            continue;
        const holder = owner.listeners.flatMap((l) => l.holders).find((h) => family.has(h.pid));
        if (holder === undefined)
            continue;
        return holder.pid === container.pid ? undefined : { pid: holder.pid, port, environ: (0,server_proc/* procEnviron */.mX)(holder.pid) };
    }
    return undefined;
}


/***/ })

};
