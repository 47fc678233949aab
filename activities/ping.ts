import { Context } from '@temporalio/activity';

export function createPingActivities() {
  return {
    /** Answers with the task queue that served it, so a caller sees which worker ran it. */
    async ping(message: string): Promise<string> {
      return `pong: ${message} (${Context.current().info.taskQueue})`;
    },
  };
}

export type PingActivities = ReturnType<typeof createPingActivities>;
