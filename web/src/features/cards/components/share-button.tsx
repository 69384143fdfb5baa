import { Share2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

/** The address anyone can open to see this card's grade (DESIGN.md §6: shared links need no account). */
export function cardLink(id: string): string {
  return new URL(`/card/${encodeURIComponent(id)}`, window.location.origin).href;
}

/**
 * Share: the system's share sheet where the browser has the Web Share API, else the link copied to the clipboard,
 * said in a toast; where neither works, the link itself is shown to copy by hand.
 */
export function ShareButton({ cardId, cardName }: { cardId: string; cardName: string }) {
  const [manual, setManual] = useState<string | null>(null);

  async function share() {
    const url = cardLink(cardId);
    const data = { title: `${cardName} · Card Grader`, text: `${cardName}: graded on Card Grader`, url };
    if (typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true)) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        // Closing the share sheet is a choice, not a failure.
        if ((error as { name?: string }).name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setManual(null);
      toast({ title: 'Link Copied', description: 'The link to this card is on your clipboard: anyone who opens it sees this grade.' });
    } catch {
      setManual(url);
    }
  }

  return (
    <>
      <Button size="lg" variant="outline" onClick={() => void share()}>
        <Share2 aria-hidden />
        Share
      </Button>
      {manual ? (
        <p role="status" className="basis-full text-center text-sm text-muted-foreground">
          Copy this link to share the card: <span className="font-medium break-all text-foreground">{manual}</span>
        </p>
      ) : null}
    </>
  );
}
