/**
 * The part of autocannon 8's programmatic API the benchmarks use (the package ships no types and
 * there is no @types/autocannon in the lockfile). Field names follow its README.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Milliseconds before a request counts as timed out (autocannon's default is 10 s). */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Each connection loops over these, in order. */
      requests?: Request[];
      /** Worker threads the connections are divided amongst (absent: the calling thread). */
      workers?: number;
    }

    /** An hdr-histogram-percentiles-obj summary (latency in ms, requests per 1 s sample). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }
  }

  /** Without a callback it returns a promise of the result. */
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;

  export = autocannon;
}
