import { Fragment, Suspense, type ReactNode } from "react";
import { QUICK_MS, settlesWithin } from "./stream-if-slow";

export type Step = {
  /** Names the step among its siblings; a new key (a new page of a list) shows its fallback again. */
  key: string;
  /** Shown while `content` waits; undefined shows nothing. */
  fallback?: ReactNode;
  /**
   * What `content` waits for, when the page holds it: a step whose data settles within QUICK_MS,
   * with every step above it, is sent in the page's first bytes instead of streamed
   * (components/ui/stream-if-slow.tsx says why). Without it the step always streams.
   */
  ready?: Promise<unknown>;
  content: ReactNode;
};

/**
 * Sections that stream in, shown top to bottom: each is shown once it and every section above
 * it are ready, and what follows (`then`, e.g. a page's links) once all are. Their data is
 * still fetched at the same time (the server renders every step at once); only the order in
 * which they appear is kept. The leading steps whose data is there at once are not streamed.
 *
 * Why: a section shown before the one above it is ready gets pushed down when that one arrives
 * (it is rarely the size of its skeleton: lists, notices and charts vary with the data), and
 * whatever was on screen below jumps with it (Lighthouse on the admin's home page: CLS 0.647
 * on a phone, from the quick links moving down). Here nothing is on screen below a section
 * that is still loading, so whatever its size, nothing moves when it arrives.
 */
export async function RevealInOrder({ steps, then = null }: { steps: Step[]; then?: ReactNode }) {
  const quick = await leadingQuickSteps(steps);
  const streamed = steps.slice(quick).reduceRight<ReactNode>(
    (rest, step) => (
      <Suspense key={step.key} fallback={step.fallback ?? null}>
        {step.content}
        {rest}
      </Suspense>
    ),
    then,
  );
  return (
    <>
      {steps.slice(0, quick).map((step) => (
        <Fragment key={step.key}>{step.content}</Fragment>
      ))}
      {streamed}
    </>
  );
}

/** How many steps from the top have data that settles within QUICK_MS (all waited for at once). */
async function leadingQuickSteps(steps: Step[]): Promise<number> {
  const held = steps.findIndex((step) => !step.ready);
  const candidates = steps.slice(0, held === -1 ? steps.length : held);
  const quick = await Promise.all(candidates.map((step) => settlesWithin(step.ready!, QUICK_MS)));
  const firstSlow = quick.indexOf(false);
  return firstSlow === -1 ? candidates.length : firstSlow;
}
