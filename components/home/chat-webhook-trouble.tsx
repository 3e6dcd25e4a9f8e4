import type { ChatWebhookHealth } from "@/lib/notifications/chat-health";
import { utcTime } from "@/components/ui/utc-time";
import { HomeBlock } from "./home-block";

/** The admin home's word when the chat channel's messages fail: what the chat service said, and since when. */
export function ChatWebhookTrouble({ failing }: { failing: NonNullable<ChatWebhookHealth["failing"]> }) {
  return (
    <div className="lg:col-span-2">
      <HomeBlock
        title="Chat notifications are failing"
        href="/settings#notifications"
        linkLabel="Chat channel"
        testId="home-admin-chat"
      >
        <p className="text-sm text-red-800">
          The last message failed at {utcTime(failing.at)}. {failing.words}
        </p>
      </HomeBlock>
    </div>
  );
}
