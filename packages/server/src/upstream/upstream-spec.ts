/** How to reach one upstream: what the connection needs from the server's configuration. */
export type UpstreamSpec =
  | {
      readonly name: string;
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      readonly name: string;
      readonly transport: 'http';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
    };
