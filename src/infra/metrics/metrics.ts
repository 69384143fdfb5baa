import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { WrongExpectedVersionError, type EventStore } from '../event-store/types.ts';
import type { ImageFetcher } from '../image-fetch/index.ts';
import type { JobHandler } from '../queue/job-queue.ts';

// What an operator watches (issue 14), in Prometheus's format at /metrics. One registry per process: requests,
// appends, downloads and grading stages are counted where they happen; queue sizes and projection lag are read at
// each scrape (src/http/routes/metrics.ts), from the runtime that answers it.

/** Seconds; from a fast API answer to a slow grading. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route (its pattern, never the raw path) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobs = new Gauge({
  name: 'job_queue_jobs',
  help: 'Jobs by name and state: waiting (or delayed for a retry) and active, as the queue holds them now.',
  labelNames: ['job', 'state'] as const,
  registers: [registry],
});

export const metricsSourceUp = new Gauge({
  name: 'metrics_source_up',
  help: 'Whether the database and the job queue answered this scrape (1) or not (0): job_queue_jobs and projection_lag_events are missing for one that did not.',
  labelNames: ['source'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'job_queue_failed_total',
  help: 'Jobs that failed for good (after their last try, or at once for work that can never succeed), by job name, in this process.',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'Jobs run by this process (each try), by job name and outcome (ok, failed), and how long each took.',
  labelNames: ['job', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const projectionLag = new Gauge({
  name: 'projection_lag_events',
  help: 'Events in the log that a projection has not applied yet, by projection and kind (inline is always 0).',
  labelNames: ['projection', 'kind', 'status'] as const,
  registers: [registry],
});

export const gradingStageDuration = new Histogram({
  name: 'grading_stage_duration_seconds',
  help: 'Time spent grading a card, by stage: decode, measure, grade, identify, annotate, and total.',
  labelNames: ['stage'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const imageDownloads = new Counter({
  name: 'image_downloads_total',
  help: 'Image URLs fetched, by outcome: ok, or the refusal code (image_fetch_timeout, image_url_refused, ...).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const eventsAppended = new Counter({
  name: 'event_store_appended_events_total',
  help: 'Events appended to the event store, by stream type.',
  labelNames: ['stream_type'] as const,
  registers: [registry],
});

export const appendConflicts = new Counter({
  name: 'event_store_append_conflicts_total',
  help: 'Appends refused because another writer moved the stream first (wrong expected version), by stream type.',
  labelNames: ['stream_type'] as const,
  registers: [registry],
});

/** A job handler that counts its runs and times them (job_duration_seconds). */
export function timedJobHandler<Data>(name: string, handler: JobHandler<Data>): JobHandler<Data> {
  return async (job) => {
    const stop = jobDuration.startTimer({ job: name });
    try {
      await handler(job);
      stop({ outcome: 'ok' });
    } catch (error) {
      stop({ outcome: 'failed' });
      throw error;
    }
  };
}

/** For the grading service: how long each stage took. */
export function observeGradingStage(stage: string, seconds: number): void {
  gradingStageDuration.observe({ stage }, seconds);
}

/** The store, counting what it appends and the conflicts it refuses. */
export function countedEventStore(store: EventStore): EventStore {
  return {
    ...store,
    async append(streamId, streamType, events, options) {
      try {
        const result = await store.append(streamId, streamType, events, options);
        eventsAppended.inc({ stream_type: streamType }, result.events.length);
        return result;
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) appendConflicts.inc({ stream_type: streamType });
        throw error;
      }
    },
  };
}

/** The fetcher, counting downloads by outcome. */
export function countedImageFetcher(fetcher: ImageFetcher): ImageFetcher {
  return {
    ...fetcher,
    async fetchImage(url) {
      try {
        const image = await fetcher.fetchImage(url);
        imageDownloads.inc({ outcome: 'ok' });
        return image;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        imageDownloads.inc({ outcome: typeof code === 'string' ? code : 'error' });
        throw error;
      }
    },
  };
}
