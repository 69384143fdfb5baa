// Operators' tool for orders at the built-in grading provider (issue 33), which has no one else to hear from:
//   npm run orders -- advance <orderId> <status> [--grades cardId=grade:cert,...] [--company AGS]
// moves an order on through received, grading, graded, shipped and delivered (forward only; the same status again
// changes nothing). Reaching graded needs the grade of the order's card, given by the company (default AGS, whose
// service the built-in provider stands for); it is also recorded as the card's professional grade, unverified.
import { advanceOrder } from '../src/commands/orders/advance-order.ts';
import { AppError } from '../src/contracts/errors.ts';
import { ORDER_PROGRESS, orderProgressSchema } from '../src/contracts/orders.ts';
import { gradingCompanySchema } from '../src/contracts/portfolio.ts';
import type { Clock, IdGenerator } from '../src/infra/clock/clock.ts';
import { randomIds, systemClock } from '../src/infra/clock/clock.ts';
import type { Database } from '../src/infra/database/database.ts';
import type { EventStore } from '../src/infra/event-store/index.ts';
import { runOperatorCommand, usageFailure } from './operator-command.ts';

const USAGE = `usage: npm run orders -- advance <orderId> <status> [--grades cardId=grade:cert,...] [--company AGS]  (statuses: ${ORDER_PROGRESS.join(', ')})`;

export interface OrdersCommandContext {
  database: Database;
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  out: (line: string) => void;
}

function usage(out: (line: string) => void, problem?: string): number {
  return usageFailure(out, USAGE, problem);
}

/** Runs one operator command; returns the process exit code. */
export async function runOrdersCommand(args: readonly string[], context: OrdersCommandContext): Promise<number> {
  const { out } = context;
  const [command, orderId, rawStatus, ...options] = args;
  if (command !== 'advance' || !orderId || !rawStatus) return usage(out);
  const status = orderProgressSchema.safeParse(rawStatus);
  if (!status.success) return usage(out, `unknown status ${rawStatus}`);
  let company = gradingCompanySchema.parse('AGS');
  let gradeSpecs: string[] = [];
  for (let i = 0; i < options.length; i += 2) {
    const [name, value] = [options[i], options[i + 1]];
    if (value === undefined) return usage(out);
    if (name === '--grades') gradeSpecs = value.split(',').filter(Boolean);
    else if (name === '--company') {
      const parsed = gradingCompanySchema.safeParse(value.toUpperCase());
      if (!parsed.success) return usage(out, `unknown company ${value}`);
      company = parsed.data;
    } else return usage(out);
  }
  const grades = [];
  for (const spec of gradeSpecs) {
    const match = /^([^=]+)=(\d+(?:\.\d+)?):([A-Za-z0-9-]{4,20})$/.exec(spec);
    if (!match) return usage(out, `a grade is cardId=grade:cert, not ${spec}`);
    grades.push({ cardId: match[1]!, company, grade: Number(match[2]), cert: match[3]! });
  }
  const metadata = { actor: { kind: 'system' as const, id: 'operator' }, commandId: context.ids.uuid(), timestamp: context.clock.now().toISOString() };
  try {
    const { changed, gradesReported } = await advanceOrder({ store: context.store, metadata }, { store: context.store }, { orderId, status: status.data, grades });
    out(changed ? `${orderId}: ${status.data}` : `${orderId} is already ${status.data}`);
    if (gradesReported > 0) out(`${gradesReported} professional grade${gradesReported === 1 ? '' : 's'} recorded`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    out(error.code === 'order_not_found' ? `no order ${orderId}` : error.message);
    return 1;
  }
}

if (import.meta.main) {
  await runOperatorCommand(({ database, store }) => runOrdersCommand(process.argv.slice(2), { database, store, clock: systemClock, ids: randomIds, out: (line) => console.log(line) }));
}
