import { Suspense, type ReactNode } from "react";

export type Step = {
  /** Names the step among its siblings; a new key (a new page of a list) shows its fallback again. */
  key: string;
  /** Shown while `content` waits; undefined shows nothing. */
  fallback?: ReactNode;
  content: ReactNode;
};

/**
 * Sections that stream in, shown top to bottom: each is shown once it and every section above
 * it are ready, and what follows (`then`, e.g. a page's links) once all are. Their data is
 * still fetched at the same time (the server renders every step at once); only the order in
 * which they appear is kept.
 *
 * Why: a section shown before the one above it is ready gets pushed down when that one arrives
 * (it is rarely the size of its skeleton: lists, notices and charts vary with the data), and
 * whatever was on screen below jumps with it (Lighthouse on the admin's home page: CLS 0.647
 * on a phone, from the quick links moving down). Here nothing is on screen below a section
 * that is still loading, so whatever its size, nothing moves when it arrives.
 */
export function RevealInOrder({ steps, then = null }: { steps: Step[]; then?: ReactNode }) {
  return steps.reduceRight<ReactNode>(
    (rest, step) => (
      <Suspense key={step.key} fallback={step.fallback ?? null}>
        {step.content}
        {rest}
      </Suspense>
    ),
    then,
  );
}
