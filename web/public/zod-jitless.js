// Read by zod when its module loads, so it must run before the app's modules: zod then never probes `new Function`
// (its fast path for objects), which the server's Content-Security-Policy forbids and a browser reports as a violation.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
