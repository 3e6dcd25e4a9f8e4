import "server-only";
import { backgroundWork, type BackgroundWork } from "@/lib/jobs/background-work";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";

/**
 * Said where money and approvals are handled (the home of admins, finance and approvers, the
 * wallet, withdrawals and spend approvals) when no worker runs (none has beaten for a minute,
 * or the last one was recorded stopped): what has stopped, in the words of what a person is
 * waiting for. To an admin, also when a worker died within the hour, and how.
 * `work`: the page's own read, when it has one (lib/jobs/background-work.ts).
 */
export async function BackgroundWorkNotice({
  work,
  admin = false,
}: {
  work?: BackgroundWork | Promise<BackgroundWork>;
  admin?: boolean;
}) {
  const { running, lastBeatAt, lastDeath } = await (work ?? backgroundWork());
  const died = admin && lastDeath ? `The worker died at ${utcTime(lastDeath.at, "second")} (${lastDeath.how})` : null;
  if (running)
    return died ? (
      <div className="mb-6">
        <Notice tone="warning" testId="worker-died" title={`${died} and was started again.`}>
          <p>
            Background work runs. Work that was in hand when it died is done once, by the worker now running; its log says why it
            died. This note stays for an hour.
          </p>
        </Notice>
      </div>
    ) : null;
  return (
    <div className="mb-6">
      <Notice
        tone="error"
        testId="background-work-stopped"
        title={`${lastBeatAt ? `Background work stopped at ${utcTime(lastBeatAt)}` : "Background work is not running"}: approved withdrawals are not being sent and notifications are not delivered.`}
      >
        <p>
          Also waiting: orders still being placed after approval, bulk files, the Issuing Service&apos;s events and order updates.
          Nothing is lost: each is done once background work runs again.
        </p>
        <p className="mt-1">
          {admin ? (
            <>
              {died ? (
                <span data-testid="worker-died">{`${died}; the launcher starts a new one within seconds.`} </span>
              ) : (
                "No worker process has reported since then: it stopped or hangs. "
              )}
              <code>npm start</code> runs one beside the app, and a setup of several instances runs <code>npm run worker</code>;
              its log says why it stopped.
            </>
          ) : (
            "Tell an admin: the worker process that does this work has stopped."
          )}
        </p>
      </Notice>
    </div>
  );
}
