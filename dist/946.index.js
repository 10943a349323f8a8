export const id = 946;
export const ids = [946];
export const modules = {

/***/ 7946:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   runCommand: () => (/* binding */ runCommand),
/* harmony export */   runDiagnostics: () => (/* binding */ runDiagnostics)
/* harmony export */ });
/* unused harmony export DIAGNOSTIC_LIMIT_S */
/** `diagnostics`: commands run after a failed wait, each in its own log group, each under a time limit. */
/** Long enough for `nvidia-smi` on a busy machine; short enough that a wedged GPU driver cannot hold the job. */
const DIAGNOSTIC_LIMIT_S = 60;
async function runDiagnostics(commands, runner) {
    for (const command of commands) {
        if (runner.cancel?.aborted)
            return;
        await runner.group(`Diagnostics: ${command}`, async () => {
            try {
                // coreutils `timeout` limits each command; -k kills what ignores SIGTERM.
                const code = await runner.exec('timeout', ['-k', '5', String(DIAGNOSTIC_LIMIT_S), '/bin/sh', '-c', command]);
                if (runner.cancel?.aborted)
                    runner.log('(stopped: the job was cancelled)');
                else if (code === 124)
                    runner.log(`(stopped after ${DIAGNOSTIC_LIMIT_S}s)`);
                else if (code !== 0)
                    runner.log(`(exit code ${code})`);
            }
            catch (e) {
                runner.log(`(could not run: ${e.message})`);
            }
        });
    }
}
/**
 * Runs a program with its output on `out`; resolves with its exit code. With `cancel`, the program leads a
 * process group of its own, and the whole group (the shell and whatever it started) is killed when `cancel`
 * aborts: a diagnostic must not hold a cancelled job. Without it, it stays in ours, so that a terminal's
 * Ctrl-C reaches it too.
 */
function runCommand(program, args, out, cancel) {
    // node:child_process is loaded only when diagnostics run.
    const { spawn } = process.getBuiltinModule('node:child_process');
    return new Promise((resolve, reject) => {
        const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: cancel !== undefined });
        const kill = () => {
            // a process that left the group may still hold the pipes: stop reading them
            child.stdout.destroy();
            child.stderr.destroy();
            try {
                if (child.pid !== undefined)
                    process.kill(-child.pid, 'SIGKILL');
            }
            catch {
                // the group has ended already
            }
        };
        if (cancel?.aborted)
            kill();
        else
            cancel?.addEventListener('abort', kill, { once: true });
        child.stdout.pipe(out, { end: false });
        child.stderr.pipe(out, { end: false });
        child.once('error', (e) => {
            cancel?.removeEventListener('abort', kill);
            reject(e);
        });
        child.once('close', (code) => {
            cancel?.removeEventListener('abort', kill);
            resolve(code ?? 1);
        });
    });
}


/***/ })

};
