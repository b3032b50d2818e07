/** A file-system error in words that name the real cause. */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ENOTDIR':
      return 'a part of the path is not a directory'
    case 'EISDIR':
      return 'it is a directory'
    case 'EROFS':
      return 'read-only file system'
    case 'ENOSPC':
      return 'no space left on the device'
    case 'EDQUOT':
      return 'disk quota exceeded'
    case 'ELOOP':
      return 'too many symbolic links (or a link where none may be)'
    case 'EEXIST':
      return 'a file of that name already exists'
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files'
    case 'EIO':
      return 'input/output error'
    default:
      return err.code ?? err.message
  }
}
