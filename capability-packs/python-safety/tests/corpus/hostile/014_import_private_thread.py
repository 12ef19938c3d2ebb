# expect: import-not-allowed,import-private
import _thread
_thread.start_new_thread(print, ("running in the background",))
