export { createCpuPool, CpuPoolBusyError, type CpuPool, type CpuPoolOptions } from './cpu-pool.ts';
