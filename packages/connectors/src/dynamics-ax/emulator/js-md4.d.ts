/** Types of `js-md4` (the package ships none): the NT hash of NTLM is MD4. */
declare module "js-md4" {
  const md4: {
    arrayBuffer(message: ArrayBuffer | Uint8Array | string): ArrayBuffer;
    hex(message: ArrayBuffer | Uint8Array | string): string;
  };
  export default md4;
}
