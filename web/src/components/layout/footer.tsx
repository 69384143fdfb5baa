/** The footer on every screen: copyright year and the partner link (SPEC.md §2). */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-card">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:px-6">
        <p>© {year} Card Grader. All rights reserved.</p>
        <p>
          Powered by{' '}
          <a
            href="https://agscard.com"
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            AGSCard
          </a>
        </p>
      </div>
    </footer>
  );
}
