export const id = 851;
export const ids = [851,854];
export const modules = {

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

/***/ 1851:
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
// EXTERNAL MODULE: ./src/server/docker.ts
var docker = __webpack_require__(931);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
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
// EXTERNAL MODULE: ./src/wait/servers/process.ts + 2 modules
var servers_process = __webpack_require__(854);
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
    const socket = (0,docker/* dockerSocket */.WQ)(deps.env);
    let engine;
    let initial;
    return {
        preflight: async () => {
            engine = new docker/* DockerEngine */.nc(socket);
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


/***/ }),

/***/ 854:
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
// EXTERNAL MODULE: ./src/gpu/nvidia-smi.ts
var nvidia_smi = __webpack_require__(7777);
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
    const snapshot = await (deps.gpu ?? (() => (0,nvidia_smi/* gpuSnapshot */.dU)({ env: deps.env, timeoutMs, signal: deps.signal })))();
    if (snapshot.kind === 'unavailable')
        return { kind: 'unavailable', why: snapshot.why, detail: snapshot.detail };
    const apps = (0,nvidia_smi/* appsOnVisibleGpus */.v5)(snapshot, deps.env.CUDA_VISIBLE_DEVICES);
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
var process = __webpack_require__(5361);
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
    const pid = settings.pid === undefined ? undefined : (0,process/* resolvePid */.QF)(settings.pid);
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
    const logFile = settings.logFile ?? (settings.start !== undefined ? (0,process/* newLogFile */.rO)(deps.env) : undefined);
    const runMarker = settings.start === undefined ? undefined : (0,process/* newRunMarker */.um)();
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
        const env = { ...(0,process/* serverEnv */.NK)(deps.env), ...(runMarker === undefined ? {} : { [guard/* RUN_MARKER */.xO]: runMarker }) };
        const server = (0,process/* startServer */.UD)(settings.start, logFile, env, deps.clock);
        deps.log(progress/* gateLines */.HN.started(server.pid, logFile));
        return server;
    }
    if (pid === undefined)
        return undefined;
    const server = (0,process/* attachServer */.Zd)(pid, deps.clock);
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
    const snapshot = await (0,nvidia_smi/* gpuSnapshot */.dU)({ env: deps.env, timeoutMs, signal: deps.cancel?.signal });
    if (snapshot.kind === 'unavailable') {
        deps.debug?.((0,lifecycle_report/* gpuUnavailableText */.gu)(snapshot.why, snapshot.detail));
        return undefined;
    }
    return (0,nvidia_smi/* memoryHeldBy */.Mv)(snapshot, family()).mib;
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
