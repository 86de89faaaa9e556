export { TIMEOUT_SCALE_VARIABLE, MAX_TIMEOUT_SCALE, measureMachineLoad, timeoutScaleFor, timeoutScale, scaledTimeout } from './index.js';
