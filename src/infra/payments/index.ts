import type { Config } from '../../config.ts';
import type { Clock } from '../clock/clock.ts';
import { httpPaymentProcessor } from './http-processor.ts';
import { testModeProcessor } from './test-mode.ts';
import type { PaymentProcessor } from './types.ts';

export function createPaymentProcessor(config: Pick<Config, 'PAYMENT_PROCESSOR_URL' | 'PAYMENT_PROCESSOR_KEY'>, clock: Clock): PaymentProcessor {
  if (!config.PAYMENT_PROCESSOR_URL) return testModeProcessor(clock);
  return httpPaymentProcessor({ baseUrl: config.PAYMENT_PROCESSOR_URL, apiKey: config.PAYMENT_PROCESSOR_KEY ?? '' });
}
