import { formatPercent, formatUsd } from '@contracts/money';
import { DollarSign, Layers, TrendingDown, TrendingUp, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { PortfolioSummary } from '../portfolio-view';

function SummaryCard({ label, value, detail, icon, tone }: { label: string; value: string; detail: ReactNode; icon: ReactNode; tone?: 'gain' | 'loss' }) {
  return (
    <Card>
      <CardContent className="grid gap-1 p-4">
        <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
          <h2 className="font-medium">{label}</h2>
          {icon}
        </div>
        <p className={cn('text-2xl font-bold tabular-nums', tone === 'gain' && 'text-emerald-700', tone === 'loss' && 'text-red-700')} data-testid={`summary-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`}>
          {value}
        </p>
        <p className="text-xs text-muted-foreground">{detail}</p>
      </CardContent>
    </Card>
  );
}

/** SPEC.md §2: total cards with the graded count, portfolio value, total investment, gain/loss with its percent. */
export function SummaryCards({ summary }: { summary: PortfolioSummary }) {
  const { gain } = summary;
  const tone = gain.cents > 0 ? 'gain' : gain.cents < 0 ? 'loss' : undefined;
  return (
    <section aria-label="Portfolio summary" className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 lg:grid-cols-4">
      <SummaryCard label="Total Cards" value={String(summary.totalCards)} detail={`${summary.gradedCards} graded`} icon={<Layers className="size-4" aria-hidden />} />
      <SummaryCard label="Portfolio Value" value={formatUsd(summary.valueCents)} detail="At current prices" icon={<DollarSign className="size-4" aria-hidden />} />
      <SummaryCard label="Total Investment" value={formatUsd(summary.costCents)} detail="What you paid" icon={<Wallet className="size-4" aria-hidden />} />
      <SummaryCard
        label="Gain/Loss"
        value={`${gain.cents > 0 ? '+' : ''}${formatUsd(gain.cents)}`}
        detail={`${gain.percent > 0 ? '+' : ''}${formatPercent(gain.percent)}`}
        icon={gain.cents < 0 ? <TrendingDown className="size-4" aria-hidden /> : <TrendingUp className="size-4" aria-hidden />}
        tone={tone}
      />
    </section>
  );
}
