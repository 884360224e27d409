import { apiRejected } from '../../metrics/api';
import { timeout } from '../status';

/** The Status of a request that ran past its deadline, as kube-apiserver's timeout filter answers it. */
export function requestTimeout() {
  return timeout('request did not complete within the allotted timeout');
}

/**
 * Runs `work` with an overall deadline: past `ms` the returned promise rejects with a 504 Timeout Status,
 * so that the caller answers and gives back what it holds (its in-flight slot) at once. The work itself
 * is not stopped (as in kube-apiserver, a write already under way may still complete); what it answers
 * later is dropped, because the response has ended.
 */
export function withDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const running = work();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      apiRejected.inc({ reason: 'request-timeout' });
      reject(requestTimeout());
    }, ms);
  });
  running.catch(() => {}); // settled after the deadline: nobody is waiting for it any more
  return Promise.race([running, expired]).finally(() => clearTimeout(timer));
}
