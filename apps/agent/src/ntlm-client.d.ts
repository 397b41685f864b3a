/** Types of the maintained NTLM client the agent uses (the package ships none). */
declare module "@ewsjs/ntlm-client" {
  export interface Type2Message {
    flags: number;
    encoding: "ascii" | "ucs2";
    version: 1 | 2;
    challenge: Buffer;
    targetName: string;
  }
  const ntlm: {
    createType1Message(workstation?: string, target?: string): string;
    decodeType2Message(header: string): Type2Message;
    createType3Message(
      type2: Type2Message,
      username: string,
      password: string,
      workstation?: string,
      target?: string,
    ): string;
  };
  export default ntlm;
}
