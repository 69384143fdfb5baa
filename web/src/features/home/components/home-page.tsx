import type { ReactNode } from 'react';

/** Home (/): the header, then what the grading screens put beneath it (the upload card and the Top Graders leaderboard). */
export function HomePage({ children }: { children?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:py-16">
      <title>Card Grader</title>
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">Grade your trading cards in seconds</h1>
        <p className="mt-4 text-lg text-pretty text-muted-foreground">
          Upload a photo of a Pokemon or sports card and get a grade out of 10 for its centering, corners, edges and
          surface.
        </p>
      </header>
      {children}
    </div>
  );
}
