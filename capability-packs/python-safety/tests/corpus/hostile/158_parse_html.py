# expect: parse-error
<script>alert(1)</script>
