/** A task action's failure, said under the action (Cancel, Publish, Make again): announced, never silent. */
export function TaskProblem({ problem }: { problem: string | null | undefined }) {
  if (!problem) return null;
  return (
    <p class="task__message task__message--error" role="alert">
      {problem}
    </p>
  );
}
