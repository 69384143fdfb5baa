import type { GradingCompany } from '../../contracts/grading.ts';
import type { OrderProgress } from '../../contracts/orders.ts';
import { orderDecider, type OrderEvent } from '../../domain/orders/index.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { reportProfessionalGrade, type ReportProfessionalGradeDeps } from '../cards/report-professional-grade.ts';
import { orderStream } from './orders.ts';

// AdvanceOrder (issue 33): the grading provider moved an order on. The built-in provider has no one to ask, so an
// operator says so (`npm run orders -- advance`); reaching 'graded' also reports the card's grade on the card's own
// stream, as its owner would from the card's page (unverified: no slab photo), so it counts on the accuracy page.

export interface AdvanceOrderInput {
  orderId: string;
  status: OrderProgress;
  grades: { cardId: string; company: GradingCompany; grade: number; cert: string }[];
}

export async function advanceOrder(context: CommandContext, deps: ReportProfessionalGradeDeps, input: AdvanceOrderInput): Promise<{ changed: boolean; gradesReported: number }> {
  const { orderId, status, grades } = input;
  const { state, events } = await handleCommand(context, {
    ...orderStream(orderId),
    decider: orderDecider,
    command: { type: 'AdvanceOrder', data: { orderId, status, grades, at: context.metadata.timestamp } },
  });
  if (state.status !== 'placed' || status !== 'graded') return { changed: events.length > 0, gradesReported: 0 };
  // Also when the order was already graded: a run cut short between the two writes is finished by running it again
  // (the same report again records nothing).
  const { events: orderEvents } = await context.store.readStream(orderStream(orderId).streamId);
  const graded = orderEvents.map((e) => e as unknown as OrderEvent).findLast((e) => e.type === 'OrderStatusChanged' && e.data.status === 'graded');
  let gradesReported = 0;
  for (const [index, grade] of (graded?.type === 'OrderStatusChanged' ? graded.data.grades : []).entries()) {
    const { recorded } = await reportProfessionalGrade(deps, {
      cardId: grade.cardId,
      requestedBy: `user:${state.userId}`,
      company: grade.company,
      grade: grade.grade,
      cert: grade.cert,
      slabPhoto: null,
      source: 'order',
      metadata: { ...context.metadata, commandId: `${context.metadata.commandId}:${index}` },
    });
    if (recorded) gradesReported++;
  }
  return { changed: events.length > 0, gradesReported };
}
